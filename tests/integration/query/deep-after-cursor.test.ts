import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCursorFixture, POSTS, type CursorFixture } from './cursor-fixture.ts';

/** `deep[<o2m>][_after]` (issue 36 item 4, docs/query.md "after (cursors)"): a nested list paged by keyset. */
describe('deep _after on a one-to-many list', () => {
  let f: CursorFixture;
  beforeAll(async () => {
    f = await createCursorFixture();
  });
  afterAll(() => f.t.close());

  const ids = (items: Array<{ id: unknown }>) => items.map((item) => item.id);

  /**
   * Author 1's posts page by page through `deep[posts][_after]`, each page's next cursor taken from the
   * top-level read of posts filtered to the author with the same sort: both pages must be the same items.
   */
  async function walkNested(sort: string, limit: number, token: string): Promise<unknown[]> {
    const seen: unknown[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const cursor = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const top = await f.get(`/items/posts?filter[author][_eq]=1&sort=${sort}&limit=${limit}&fields=id&meta=next_cursor${cursor}`, token);
      const deepAfter = after === null ? '' : `&deep[posts][_after]=${encodeURIComponent(after)}`;
      const nested = await f.get(`/items/authors/1?fields=id,posts.id&deep[posts][_sort]=${sort}&deep[posts][_limit]=${limit}${deepAfter}`, token);
      expect(ids(nested.data.posts)).toEqual(ids(top.data));
      seen.push(...ids(nested.data.posts));
      after = top.meta!.next_cursor as string | null;
      if (after === null) return seen;
    }
    throw new Error('more than 20 pages');
  }

  it.each([['score'], ['-score'], ['title'], ['-id']])('sort=%s: the nested pages hold every post of the author once, in order', async (sort) => {
    const all = ids((await f.get(`/items/posts?filter[author][_eq]=1&sort=${sort}&limit=-1&fields=id`)).data);
    expect(all).toHaveLength(POSTS.filter((post) => post.author === 1).length);
    for (const limit of [1, 3, 4]) expect(await walkNested(sort, limit, f.admin)).toEqual(all);
  });

  it('applies the role permissions on every nested page', async () => {
    const published = ids((await f.get('/items/posts?filter[author][_eq]=1&sort=-score&limit=-1&fields=id', f.reader)).data);
    const drafts = ids((await f.get('/items/posts?filter[status][_eq]=draft&limit=-1&fields=id')).data);
    expect(published.length).toBeGreaterThan(3);
    expect(published.some((id) => drafts.includes(id))).toBe(false);
    expect(await walkNested('-score', 2, f.reader)).toEqual(published);
  });

  it('pages every parent list after the cursor, other deep options kept', async () => {
    const { meta } = await f.get('/items/posts?sort=score&limit=2&meta=next_cursor&fields=id');
    const cursor = encodeURIComponent(meta!.next_cursor as string);
    const both = await f.get(`/items/authors?sort=id&fields=id,posts.id,posts.score&deep[posts][_sort]=score&deep[posts][_limit]=-1&deep[posts][_filter][score][_lte]=2&deep[posts][_after]=${cursor}`);
    const after = ids((await f.get(`/items/posts?sort=score&limit=-1&fields=id&filter[score][_lte]=2&after=${cursor}`)).data);
    for (const author of both.data) {
      expect(author.posts.length).toBeGreaterThan(0);
      expect(author.posts.every((post: { id: unknown; score: number }) => after.includes(post.id) && post.score <= 2)).toBe(true);
    }
    expect(both.data.flatMap((author: { posts: Array<{ id: unknown }> }) => ids(author.posts)).sort()).toEqual([...after].sort());
  });

  it('answers 400 naming deep.posts._after for a cursor that was edited or made for another sort, and for _page or _offset beside it', async () => {
    const { meta } = await f.get('/items/posts?sort=score&limit=2&meta=next_cursor&fields=id');
    const cursor = meta!.next_cursor as string;
    const [, signature] = cursor.split('.');
    const edited = `${Buffer.from(JSON.stringify([['score'], ['x', '1']]), 'utf8').toString('base64url')}.${signature}`;
    for (const deep of [
      `deep[posts][_sort]=score&deep[posts][_after]=${edited}`,
      'deep[posts][_sort]=score&deep[posts][_after]=not*a*cursor',
      `deep[posts][_sort]=-score&deep[posts][_after]=${cursor}`,
      `deep[posts][_after]=${cursor}`,
      `deep[posts][_sort]=score&deep[posts][_page]=2&deep[posts][_after]=${cursor}`,
      `deep[posts][_sort]=score&deep[posts][_offset]=1&deep[posts][_after]=${cursor}`,
    ]) {
      // Checked also when the list is not selected, as every deep option is.
      for (const fields of ['id,posts.id', 'id']) {
        const response = await f.t.request.get(`/items/authors?fields=${fields}&${deep}`).set(f.as(f.admin));
        expect(response.status, deep).toBe(400);
        expect(response.body.errors[0].extensions, deep).toMatchObject({ code: 'INVALID_QUERY', field: 'deep.posts._after' });
      }
    }
    const manyToOne = await f.t.request.get(`/items/posts?fields=id,author.id&deep[author][_after]=${cursor}`).set(f.as(f.admin));
    expect(manyToOne.status).toBe(400);
    expect(manyToOne.body.errors[0].message).toMatch(/points to one item/);
  });
});
