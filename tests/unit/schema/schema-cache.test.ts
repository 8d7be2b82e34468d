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

describe('createSchemaCache: changes to some collections', () => {
  /** A reader and a patcher that record what they were asked to read. */
  function recording() {
    const calls: Array<string[] | 'all'> = [];
    const read = async (): Promise<SchemaOverview> => {
      calls.push('all');
      return { collections: {}, relations: [] };
    };
    const patch = async (_db: Kysely<any>, previous: SchemaOverview, names: readonly string[]): Promise<SchemaOverview | null> => {
      calls.push([...names]);
      return names.includes('unknowable') ? null : { collections: previous.collections, relations: [...previous.relations] };
    };
    return { calls, read, patch };
  }

  it('re-reads only the named collections, and nothing while none changed', async () => {
    const { calls, read, patch } = recording();
    let cleared = 0;
    const cache = createSchemaCache(db, read, () => (cleared += 1), patch);
    const first = await cache.get();
    cache.invalidate(['posts']);
    cache.invalidate(['authors', 'posts']);
    const second = await cache.get();
    expect(second).not.toBe(first);
    expect(await cache.get()).toBe(second);
    expect(calls).toEqual(['all', ['posts', 'authors']]);
    // No collection changed (a permission did): a new overview object all the same, read from nothing new.
    cache.invalidate([]);
    const third = await cache.get();
    expect(third).not.toBe(second);
    expect(await cache.get()).toBe(third);
    expect(calls).toEqual(['all', ['posts', 'authors'], []]);
    expect(cleared).toBe(3);
  });

  it('reads it all when the patcher cannot say, and after invalidate() without names', async () => {
    const { calls, read, patch } = recording();
    const cache = createSchemaCache(db, read, undefined, patch);
    await cache.get();
    cache.invalidate(['unknowable']);
    await cache.get();
    cache.invalidate();
    await cache.get();
    expect(calls).toEqual(['all', ['unknowable'], 'all', 'all']);
  });

  it('patches a build that was under way when the change came, after it', async () => {
    const { calls, read, patch } = recording();
    const cache = createSchemaCache(db, read, undefined, patch);
    const building = cache.get();
    cache.invalidate(['posts']);
    const patched = await cache.get();
    expect(patched).not.toBe(await building);
    expect(calls).toEqual(['all', ['posts']]);
  });

  it('peek() tells the last overview and what changed since, without reading', async () => {
    const { calls, read, patch } = recording();
    const cache = createSchemaCache(db, read, undefined, patch);
    expect(cache.peek()).toBeNull();
    const first = await cache.get();
    cache.invalidate(['posts']);
    expect(cache.peek()).toEqual({ overview: first, changed: new Set(['posts']) });
    const second = await cache.get();
    expect(cache.peek()).toEqual({ overview: second, changed: new Set() });
    cache.invalidate();
    expect(cache.peek()).toBeNull();
    expect(calls).toEqual(['all', ['posts']]);
  });
});
