import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../../server/files/assets/byte-range.ts';

describe('parseByteRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=50-500', 100, { start: 50, end: 99 }],
  ])('%s of %i bytes', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });

  it.each([['bytes=100-'], ['bytes=100-200'], ['bytes=9-3'], ['bytes=-0'], ['bytes=99999999999999999999-']])('%s is unsatisfiable', (header) => {
    expect(parseByteRange(header, 100)).toBe('unsatisfiable');
  });

  it('serves the whole file for no header, other units, multiple ranges and malformed headers', () => {
    expect(parseByteRange(undefined, 100)).toBeNull();
    expect(parseByteRange('items=0-5', 100)).toBeNull();
    expect(parseByteRange('bytes=0-1,5-6', 100)).toBeNull();
    // range-parser reports these as malformed (-2); RFC 9110 lets a server ignore them (they were 416 before).
    for (const header of ['bytes=-', 'bytes=a-b', 'bytes=', 'bytes=0-9,,', 'nonsense']) expect(parseByteRange(header, 100), header).toBeNull();
  });

  it('merges overlapping ranges and keeps the satisfiable one of a set', () => {
    expect(parseByteRange('bytes=0-1,1-5', 100)).toEqual({ start: 0, end: 5 });
    expect(parseByteRange('bytes=1-2,100-200', 100)).toEqual({ start: 1, end: 2 });
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});
