import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { SchemaOverview } from '../../../server/schema/overview.ts';
import { createSchemaCache } from '../../../server/schema/schema-cache.ts';

/** A reader that counts its builds and can be told to fail once. */
function countingReader() {
  const state = { builds: 0, failNext: false };
  const read = async (): Promise<SchemaOverview> => {
    state.builds += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (state.failNext) {
      state.failNext = false;
      throw new Error('database down');
    }
    return { collections: {}, relations: [{ build: state.builds }] as never };
  };
  return { state, read };
}

const db = () => ({}) as Kysely<any>;

describe('createSchemaCache', () => {
  it('builds once for concurrent callers and keeps the overview', async () => {
    const { state, read } = countingReader();
    const cache = createSchemaCache(db, read);
    const [a, b, c] = await Promise.all([cache.get(), cache.get(), cache.get()]);
    expect(state.builds).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(await cache.get()).toBe(a);
    expect(state.builds).toBe(1);
  });

  it('rebuilds after invalidate()', async () => {
    const { state, read } = countingReader();
    const cache = createSchemaCache(db, read);
    const first = await cache.get();
    cache.invalidate();
    const second = await cache.get();
    expect(state.builds).toBe(2);
    expect(second).not.toBe(first);
  });

  it('does not keep a failed build: the next get() tries again', async () => {
    const { state, read } = countingReader();
    state.failNext = true;
    const cache = createSchemaCache(db, read);
    await expect(cache.get()).rejects.toThrow('database down');
    await expect(cache.get()).resolves.toBeDefined();
    expect(state.builds).toBe(2);
  });

  it('does not let a build started before invalidate() replace the newer one', async () => {
    const { state, read } = countingReader();
    const cache = createSchemaCache(db, read);
    const stale = cache.get();
    cache.invalidate();
    const fresh = cache.get();
    expect(await stale).not.toBe(await fresh);
    expect(await cache.get()).toBe(await fresh);
    expect(state.builds).toBe(2);
  });
});
