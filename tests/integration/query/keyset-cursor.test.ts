import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** `?after=` cursors (issue 36 item 4, docs/query.md "Cursors") over HTTP, as an admin and as a restricted role. */
describe('keyset pagination with after', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  // 13 posts: `score` (not null) and `status` repeat, `rank` is null on some; ties are broken by the key.
  const POSTS = Array.from({ length: 13 }, (_, index) => ({
    title: `Post ${String.fromCharCode(97 + ((index * 5) % 13))}`,
    score: [3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3][index],
    rank: index % 4 === 0 ? null : (index * 7) % 5,
    status: index % 3 === 0 ? 'draft' : 'published',
  }));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request
      .post('/collections')
      .set(as(admin))
      .send({
        collection: 'posts',
        fields: [
          { field: 'title', type: 'string' },
          { field: 'score', type: 'integer', schema: { is_nullable: false, default_value: 0 } },
          { field: 'rank', type: 'integer' },
          { field: 'status', type: 'string' },
        ],
      })
      .expect(200);
    await t.request.post('/items/posts').set(as(admin)).send(POSTS).expect(200);
    const role = (await t.request.post('/roles').set(as(admin)).send({ name: 'Cursor reader', app_access: false }).expect(200)).body.data.id as string;
    await t.request
      .post('/permissions')
      .set(as(admin))
      .send({ role, collection: 'posts', action: 'read', fields: 'id,title,score', permissions: { status: { _eq: 'published' } } })
      .expect(200);
    await t.request.post('/users').set(as(admin)).send({ email: 'cursor@example.com', password: 'cursor-password-1', role, status: 'active' }).expect(200);
    reader = await t.login('cursor@example.com', 'cursor-password-1');
  });
  afterAll(() => t.close());

  async function get(query: string, token = admin): Promise<{ data: Array<Record<string, unknown>>; meta?: Record<string, unknown> }> {
    return (await t.request.get(`/items/posts?${query}`).set(as(token)).expect(200)).body;
  }

  /** Every page from the first, following meta.next_cursor until it is null; the ids in order, and the pages' sizes. */
  async function walk(query: string, limit: number, token = admin): Promise<{ ids: unknown[]; sizes: number[] }> {
    const ids: unknown[] = [];
    const sizes: number[] = [];
    let body = await get(`${query}&fields=id&limit=${limit}&meta=next_cursor`, token);
    for (;;) {
      ids.push(...body.data.map((item) => item.id));
      sizes.push(body.data.length);
      const next = body.meta?.next_cursor;
      if (next === null) return { ids, sizes };
      expect(typeof next).toBe('string');
      expect(sizes.length).toBeLessThan(20);
      body = await get(`${query}&fields=id&limit=${limit}&after=${encodeURIComponent(next as string)}`, token);
    }
  }

  async function allIds(query: string, token = admin): Promise<unknown[]> {
    return (await get(`${query}&fields=id&limit=-1`, token)).data.map((item) => item.id);
  }

  it.each([
    ['no sort (the key)', ''],
    ['sort=score (ties broken by the key)', 'sort=score'],
    ['sort=-score', 'sort=-score'],
    ['sort=status,-score (mixed directions)', 'sort=status,-score'],
    ['sort=rank (nulls last)', 'sort=rank'],
    ['sort=-rank (nulls first)', 'sort=-rank'],
    ['sort=-id', 'sort=-id'],
    ['sort=title', 'sort=title'],
  ])('%s: the pages hold every item once, in the order of one unpaged read', async (_name, sort) => {
    const expected = await allIds(sort);
    expect(expected).toHaveLength(POSTS.length);
    for (const limit of [1, 2, 5]) {
      const { ids } = await walk(sort, limit);
      expect(ids).toEqual(expected);
    }
  });

  it('gives no next cursor on the last page, also when it is exactly full', async () => {
    expect(await walk('sort=score', 13)).toEqual({ ids: await allIds('sort=score'), sizes: [13] });
    const { sizes } = await walk('sort=score', 5);
    expect(sizes).toEqual([5, 5, 3]);
    expect((await get('limit=-1&meta=next_cursor')).meta).toEqual({ next_cursor: null });
  });

  it('applies the filter and the caller permissions on every page; filter_count counts the whole filtered set', async () => {
    const published = POSTS.filter((post) => post.status === 'published').length;
    const expected = await allIds('sort=-score&filter[score][_gte]=2', reader);
    expect(expected.length).toBeGreaterThan(2);
    expect((await walk('sort=-score&filter[score][_gte]=2', 2, reader)).ids).toEqual(expected);
    const drafts = (await get('filter[status][_eq]=draft&fields=id&limit=-1')).data.map((item) => item.id);
    expect(expected.some((id) => drafts.includes(id))).toBe(false);

    const first = await get('sort=score&fields=id&limit=3&meta=next_cursor,filter_count,total_count', reader);
    const second = await get(`sort=score&fields=id&limit=3&meta=filter_count,total_count&after=${first.meta!.next_cursor as string}`, reader);
    expect(second.meta).toMatchObject({ filter_count: published, total_count: published });
    expect(typeof second.meta!.next_cursor).toBe('string');
  });

  it('refuses a sort on a field the role may not read, cursor or not', async () => {
    const response = await t.request.get('/items/posts?sort=rank&meta=next_cursor').set(as(reader));
    expect(response.status).toBe(403);
  });

  it('answers 400 naming after for a cursor it did not give out or one that does not fit the read', async () => {
    const { meta } = await get('sort=score&limit=2&meta=next_cursor');
    const cursor = meta!.next_cursor as string;
    // Unsigned, or edited after signing (a value of the wrong type would otherwise reach PostgreSQL).
    const forged = Buffer.from(JSON.stringify([['score'], ['x', '1']]), 'utf8').toString('base64url');
    const [payload, signature] = cursor.split('.');
    const edited = `${Buffer.from(JSON.stringify([['score'], ['x', '1']]), 'utf8').toString('base64url')}.${signature}`;
    expect(payload).not.toBe('');
    for (const query of [
      'after=not*a*cursor',
      `after=${Buffer.from('{"a":1}').toString('base64url')}`,
      `sort=score&after=${forged}`,
      `sort=score&after=${edited}`,
      `sort=-score&after=${cursor}`,
      `sort=score&page=2&after=${cursor}`,
      `sort=score&offset=2&after=${cursor}`,
      `aggregate[count]=*&after=${cursor}`,
    ]) {
      const response = await t.request.get(`/items/posts?${query}`).set(as(admin));
      expect(response.status, query).toBe(400);
      expect(response.body.errors[0].extensions, query).toMatchObject({ code: 'INVALID_QUERY', field: 'after' });
      expect(response.body.errors[0].message, query).toMatch(/after/);
    }
    const zero = await t.request.get('/items/posts?limit=0&meta=next_cursor').set(as(admin)).expect(400);
    expect(zero.body.errors[0].extensions.field).toBe('limit');
  });

  it('leaves meta=* as the two counts, and reads by key ignore a cursor', async () => {
    expect(Object.keys((await get('meta=*&limit=1')).meta!).sort()).toEqual(['filter_count', 'total_count']);
    const { meta } = await get('sort=score&limit=2&meta=next_cursor');
    const one = await t.request.get(`/items/posts/1?after=${meta!.next_cursor as string}`).set(as(admin)).expect(200);
    expect(one.body.data.id).toBe(1);
  });
});
