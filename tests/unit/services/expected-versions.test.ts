import { describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../server/errors.ts';
import { expectedFromArgument, parseIfMatch } from '../../../server/services/items/expected-versions.ts';

const A = '0123456789abcdef0123456789abcdef';
const B = 'fedcba9876543210fedcba9876543210';

describe('If-Match (RFC 9110 §13.1.1)', () => {
  it('sets no condition without a header or with "*"', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('')).toBeUndefined();
    expect(parseIfMatch(' * ')).toBeUndefined();
  });

  it('reads a list of quoted tags, empty elements and spaces included, without repeats', () => {
    expect(parseIfMatch(`"${A}"`)).toEqual({ tags: [A], written: new Map() });
    expect(parseIfMatch(` "${A}" ,, "${B}",\t"${A}" `)).toEqual({ tags: [A, B], written: new Map() });
  });

  it('keeps weak tags and tags that are no version of ours out: they can never match', () => {
    expect(parseIfMatch(`W/"${A}", "${B}"`)).toEqual({ tags: [B], written: new Map() });
    expect(parseIfMatch('"some-other-tag"')).toEqual({ tags: [], written: new Map() });
  });

  it('refuses what is not a list of quoted tags, naming the header', () => {
    for (const header of [A, `"${A}" "${B}"`, `"${A}`, '*, "x"', 'W/x']) {
      expect(() => parseIfMatch(header), header).toThrow(InvalidPayloadError);
    }
    try {
      parseIfMatch(A);
    } catch (error) {
      expect((error as InvalidPayloadError).extensions.field).toBe('If-Match');
    }
  });

  it("GraphQL's if_match takes tags with or without quotes, one or a list", () => {
    expect(expectedFromArgument(null)).toBeUndefined();
    expect(expectedFromArgument('*')).toBeUndefined();
    expect(expectedFromArgument(A)).toEqual({ tags: [A], written: new Map() });
    expect(expectedFromArgument([`"${A}"`, B, `W/"${B}"`])).toEqual({ tags: [A, B], written: new Map() });
  });
});
