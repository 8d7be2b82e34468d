import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileReadQuery } from '../../../server/query/compile-read.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * `meta=filter_count` on a large table (issue 36 item 4): the count is its own scalar subquery, so the page
 * is still chosen by LIMIT from the sort's index. A window count (`count(*) over ()`) made PostgreSQL read
 * and sort every matching row first: seconds on 1,000,000 items (docs/performance.md "Large tables").
 */
describe('filter_count beside a page', () => {
  let t: TestApp;
  let admin: string;
  const ROWS = 3000;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request
      .post('/collections')
      .set('Authorization', `Bearer ${admin}`)
      .send({ collection: 'events', fields: [{ field: 'at', type: 'timestamp', schema: { is_indexed: true } }, { field: 'kind', type: 'string' }, { field: 'size', type: 'integer' }] })
      .expect(200);
    const db = t.context.database.kysely();
    await sql`insert into events (at, kind, size) select timestamptz '2026-01-01' - g * interval '1 minute', case when g % 3 = 0 then 'a' else 'b' end, g % 100 from generate_series(1, ${ROWS}::int) as g`.execute(db);
    await sql`analyze events`.execute(db);
  });
  afterAll(() => t.close());

  async function plan(query: string): Promise<string> {
    const schema = await t.context.schema.get();
    const db = t.context.database.kysely();
    const compiled = compileReadQuery(schema, 'events', parseQuery(query), { accountability: null }).statement.compile(db);
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it.each(['sort=-at', 'sort=size', '', 'sort=-at&filter[kind][_eq]=a'])('%s: no window count in the plan', async (query) => {
    expect(await plan(`${query}&limit=25&meta=filter_count,total_count`)).not.toMatch(/WindowAgg/);
  });

  it.each([
    ['sort=-at', ROWS],
    ['sort=size', ROWS],
    ['', ROWS],
    ['sort=-at&filter[kind][_eq]=a', ROWS / 3],
    ['sort=size&search=a', ROWS / 3],
  ])('%s: the counts are the whole set, not the page', async (query, expected) => {
    const body = (await t.request.get(`/items/events?${query}&limit=25&meta=filter_count,total_count`).set('Authorization', `Bearer ${admin}`).expect(200)).body;
    expect(body.data).toHaveLength(25);
    expect(body.meta).toEqual({ filter_count: expected, total_count: ROWS });
    const cursor = (await t.request.get(`/items/events?${query}&limit=25&meta=next_cursor`).set('Authorization', `Bearer ${admin}`).expect(200)).body.meta.next_cursor;
    const next = (await t.request.get(`/items/events?${query}&limit=25&meta=filter_count&after=${cursor}`).set('Authorization', `Bearer ${admin}`).expect(200)).body;
    expect(next.meta).toEqual({ filter_count: expected, next_cursor: expect.any(String) });
  });
});
