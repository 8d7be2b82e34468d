import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Reads that match text patterns are planned for their pattern each time (issue 36 item 4): a prepared
 * statement's generic plan never uses the trigram indexes the index advice offers for `?search=` (measured on
 * 100,000 articles: 2,000 ms instead of 8 ms, docs/performance.md "Large tables"). Other reads stay prepared.
 * One pool connection, so pg_prepared_statements shows every statement the reads prepared.
 */
describe('prepared statements and pattern matches', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_MAX: '1' });
    admin = await t.login();
    await t.request.post('/collections').set('Authorization', `Bearer ${admin}`).send({ collection: 'notes', fields: [{ field: 'title', type: 'string' }, { field: 'rank', type: 'integer' }] }).expect(200);
    await t.request.post('/items/notes').set('Authorization', `Bearer ${admin}`).send([{ title: 'quasar one', rank: 1 }, { title: 'pulsar two', rank: 2 }]).expect(200);
  });
  afterAll(() => t.close());

  async function prepared(): Promise<string[]> {
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(t.context.database.kysely());
    return rows.map((row) => row.statement);
  }

  it('prepares a plain list read, never a search or a pattern filter', async () => {
    for (const query of ['search=quasar', 'filter[title][_icontains]=uasa', 'filter[title][_starts_with]=qu', 'sort=-rank&limit=1', 'fields=id&deep[x][_search]=y']) {
      const response = await t.request.get(`/items/notes?${query}`).set('Authorization', `Bearer ${admin}`);
      expect(response.status, query).toBeLessThan(500);
    }
    const statements = await prepared();
    expect(statements.some((text) => /from "notes"/.test(text) && /order by "\w+"\."rank" desc/.test(text))).toBe(true);
    expect(statements.filter((text) => /from "notes"/.test(text) && /like/.test(text))).toEqual([]);
    const found = (await t.request.get('/items/notes?search=quasar&fields=title').set('Authorization', `Bearer ${admin}`).expect(200)).body.data;
    expect(found).toEqual([{ title: 'quasar one' }]);
  });
});
