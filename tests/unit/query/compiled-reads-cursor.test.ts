import { describe, expect, it } from 'vitest';
import { reuseKey } from '../../../server/query/compiled-reads.ts';

/** Reads with a cursor, at the root or in a nested list, are compiled for themselves: every page has its own. */
describe('reuse of compiled cursor reads', () => {
  const options = { accountability: null, reuseIdentity: 'role' };

  it('keeps a read without a cursor, and none with one at the root or in deep', () => {
    expect(reuseKey('authors', { fields: ['posts.id'], deep: { posts: { sort: ['score'], limit: 3 } } }, options)).toEqual(expect.any(String));
    expect(reuseKey('authors', { fields: ['id'], after: 'c' }, options)).toBeNull();
    expect(reuseKey('authors', { fields: ['posts.id'], deep: { posts: { sort: ['score'], after: 'c' } } }, options)).toBeNull();
    expect(reuseKey('authors', { fields: ['posts.tags.id'], deep: { posts: { deep: { tags: { after: 'c' } } } } }, options)).toBeNull();
  });
});
