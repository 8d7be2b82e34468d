import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { compileReadQuery } from '../../../server/query/compile-read.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * A sort led by an indexed column carries whole rows out of the page subquery instead of joining keys back
 * (server/query/compile-read.ts). `rank` is indexed and `rank_copy` holds the same values without an index,
 * so every read sorted by one must answer exactly what the same read sorted by the other answers.
 */
describe('reads sorted by an indexed column', () => {
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request.post('/collections').set(auth).send({ collection: 'people', fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request
      .post('/collections')
      .set(auth)
      .send({
        collection: 'posts',
        fields: [
          { field: 'title', type: 'string' },
          { field: 'rank', type: 'integer', schema: { is_indexed: true } },
          { field: 'rank_copy', type: 'integer' },
          { field: 'score', type: 'integer' },
          { field: 'author', type: 'integer', meta: { special: ['m2o'] } },
        ],
      })
      .expect(200);
    await t.request.post('/relations').set(auth).send({ collection: 'posts', field: 'author', related_collection: 'people', meta: { one_field: 'posts' } }).expect(200);
    await sql`insert into people (name) select 'person ' || i from generate_series(1, 20) i`.execute(t.system.db);
    // Ties (rank repeats) and nulls, so the key tie-break and null order matter.
    await sql`insert into posts (title, rank, rank_copy, score, author)
      select 'post ' || i, case when i % 17 = 0 then null else i % 40 end, case when i % 17 = 0 then null else i % 40 end, (i * 37) % 101, 1 + i % 20
        from generate_series(1, 400) i`.execute(t.system.db);
    await t.request.post('/utils/cache/clear').set(auth).expect(200);
  });
  afterAll(() => t.close());

  it('compiles to the row-carrying page only when the first sort column is indexed', async () => {
    const schema = await t.context.schema.get();
    const compiled = (sort: string) => compileReadQuery(schema, 'posts', parseQuery({ sort, limit: '10' }), { accountability: systemAccountability() }).statement.compile(t.system.db).sql;
    expect(compiled('-rank')).toContain('".*');
    expect(compiled('-rank')).not.toContain('__key');
    expect(compiled('-rank_copy')).toContain('__key');
    expect(compiled('score,-rank')).toContain('__key');
  });

  it.each([
    ['sort=-rank&limit=25'],
    ['sort=rank,-score&limit=30&offset=45'],
    ['sort=-rank&filter[score][_gt]=50&limit=20&page=2'],
    ['sort=rank&fields=id,title,rank,author.name&limit=15&meta=filter_count,total_count&filter[author][name][_eq]=person 3'],
    ['sort=-rank,title&fields=*,author.*&limit=-1'],
    ['sort=rank&search=post 1&limit=50&meta=filter_count'],
  ])('%s answers what the unindexed column answers', async (query) => {
    const indexed = await t.request.get(`/items/posts?${query}`).set(auth).expect(200);
    const plainQuery = query.replace(/sort=[^&]*/, (sort) => sort.replace(/rank(?=,|$)/g, 'rank_copy'));
    const plain = await t.request.get(`/items/posts?${plainQuery}`).set(auth).expect(200);
    expect(indexed.body.data.length).toBeGreaterThan(0);
    expect(indexed.body).toEqual(plain.body);
  });

  it('keeps the order a reader would compute', async () => {
    const { data } = (await t.request.get('/items/posts?sort=-rank,id&fields=id,rank&limit=-1').set(auth).expect(200)).body as { data: Array<{ id: number; rank: number | null }> };
    const expected = [...data].sort((a, b) => (a.rank === b.rank ? a.id - b.id : a.rank === null ? -1 : b.rank === null ? 1 : b.rank - a.rank));
    expect(data.map((row) => row.id)).toEqual(expected.map((row) => row.id));
    expect(data).toHaveLength(400);
  });
});
