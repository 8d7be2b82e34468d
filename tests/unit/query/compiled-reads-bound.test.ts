import { describe, expect, it } from 'vitest';
import { keptReads, reusableRead, type ReusableRead } from '../../../server/query/compiled-reads.ts';
import type { SchemaOverview } from '../../../server/schema/overview.ts';

/** A compiled read standing for the one `key` would compile to (only its identity matters here). */
const compiled = (key: string): ReusableRead => ({ meta: {} as ReusableRead['meta'], counts: {} as ReusableRead['counts'], statement: { sql: key, parameters: [] } as unknown as ReusableRead['statement'], keys: [], dependsOn: { user: false, now: false } });

describe('compiled reads kept per schema', () => {
  it('keeps at most 500, dropping the least recently used', () => {
    const schema = {} as SchemaOverview;
    let compiles = 0;
    const read = (key: string) => reusableRead(schema, key, () => (compiles++, compiled(key)));
    for (let n = 0; n < 500; n++) read(`read ${n}`);
    // Read 0 used again: read 1 is now the least recently used.
    read('read 0');
    expect(compiles).toBe(500);
    read('read 500');
    expect(keptReads(schema)).toBe(500);
    read('read 0');
    expect(compiles).toBe(501);
    read('read 1');
    expect(compiles).toBe(502);
    expect(keptReads(schema)).toBe(500);
  });

  it('compiles a read without a key every time, keeping nothing', () => {
    const schema = {} as SchemaOverview;
    let compiles = 0;
    for (let n = 0; n < 3; n++) reusableRead(schema, null, () => (compiles++, compiled('x')));
    expect(compiles).toBe(3);
    expect(keptReads(schema)).toBe(0);
  });
});
