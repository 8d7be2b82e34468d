import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemsService } from '../../../server/services/items/items-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** The named statements of the app's only connection (DB_POOL_MAX=1), from PostgreSQL itself. */
async function preparedOn(t: TestApp): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where not from_sql order by prepare_time`.execute(t.system.db);
  return rows.map((row) => row.statement);
}

describe('reads run as named prepared statements', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_MAX: '1' });
    auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request
      .post('/collections')
      .set(auth)
      .send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }, { field: 'n', type: 'integer' }] })
      .expect(200);
    await t.request
      .post('/items/notes')
      .set(auth)
      .send([1, 2, 3, 4, 5].map((n) => ({ text: `note ${n}`, n })))
      .expect(200);
  });
  afterAll(() => t.close());

  const texts = (body: { data: Array<{ text: string }> }) => body.data.map((item) => item.text);

  it('prepares a read once on the connection and binds new values to it', async () => {
    const before = (await preparedOn(t)).length;
    const first = await t.request.get('/items/notes?fields=text&filter[n][_gt]=3&sort=n').set(auth).expect(200);
    const second = await t.request.get('/items/notes?fields=text&filter[n][_gt]=1&sort=n').set(auth).expect(200);
    expect(texts(first.body)).toEqual(['note 4', 'note 5']);
    expect(texts(second.body)).toEqual(['note 2', 'note 3', 'note 4', 'note 5']);
    const statements = await preparedOn(t);
    const reads = statements.filter((text) => text.includes('from "notes"') && text.includes('"n" >'));
    expect(reads).toHaveLength(1);
    expect(statements.length).toBe(before + 1);
  });

  it('keeps answering the same statement after the table changes under it', async () => {
    const path = '/items/notes?fields=text,n&filter[n][_lte]=2&sort=n';
    expect((await t.request.get(path).set(auth).expect(200)).body.data).toEqual([
      { text: 'note 1', n: 1 },
      { text: 'note 2', n: 2 },
    ]);
    await t.request.post('/fields/notes').set(auth).send({ field: 'extra', type: 'string' }).expect(200);
    await t.request.patch('/fields/notes/text').set(auth).send({ schema: { max_length: 500 } }).expect(200);
    await t.request.patch('/items/notes').set(auth).send({ query: { filter: { n: { _eq: 1 } } }, data: { text: 'one' } }).expect(200);
    expect((await t.request.get(path).set(auth).expect(200)).body.data).toEqual([
      { text: 'one', n: 1 },
      { text: 'note 2', n: 2 },
    ]);
  });

  it('keeps at most 100 statements on a connection, deallocating the least recently used', async () => {
    // `_or` lists of different lengths compile to different statement texts (an `_in` list binds as one array).
    const shape = (length: number) => `/items/notes?fields=n&sort=n&filter=${encodeURIComponent(JSON.stringify({ _or: Array.from({ length }, (_, i) => ({ n: { _eq: (i % 5) + 1 } })) }))}`;
    const isFirstShape = (text: string) => text.includes('from "notes"') && (text.match(/"n" = \$\d+/g) ?? []).length === 1;
    for (let length = 1; length <= 130; length++) await t.request.get(shape(length)).set(auth).expect(200);
    const statements = await preparedOn(t);
    expect(statements.length).toBeLessThanOrEqual(100);
    expect(statements.length).toBeGreaterThanOrEqual(95);
    // The first shape fell out; asking for it again prepares it afresh and still answers correctly.
    expect(statements.some(isFirstShape)).toBe(false);
    expect((await t.request.get(shape(1)).set(auth).expect(200)).body.data).toEqual([{ n: 1 }]);
    expect((await preparedOn(t)).some(isFirstShape)).toBe(true);
  });

  it('keeps a transaction intact when statements are deallocated inside it', async () => {
    const schema = await t.context.schema.get();
    await t.system.db.transaction().execute(async (trx) => {
      const notes = new ItemsService('notes', { ...t.system, db: trx, schema });
      await notes.updateMany([2, 3], { text: 'two or three' });
      // 110 fresh statement texts on the transaction's connection: the oldest are deallocated mid-transaction.
      for (let length = 1; length <= 110; length++) {
        const { data } = await notes.readByQuery({ fields: ['n'], sort: ['n'], filter: { n: { _nin: Array.from({ length }, () => 9) } } });
        expect(data).toHaveLength(5);
      }
      await notes.updateOne(4, { text: 'four' });
    });
    const stored = await t.system.db.selectFrom('notes').select(['id', 'text']).where('id', 'in', [2, 3, 4]).orderBy('id').execute();
    expect(stored.map((row) => row.text)).toEqual(['two or three', 'two or three', 'four']);
    expect((await preparedOn(t)).length).toBeLessThanOrEqual(100);
  });

  it('prepares the one-statement create once per payload shape, answering each its own key as the column type gives it', async () => {
    const creates = async () => (await preparedOn(t)).filter((text) => text.includes('insert into "notes"'));
    const first = (await t.request.post('/items/notes?fields=id,text').set(auth).send({ text: 'six', n: 6 }).expect(200)).body.data;
    const second = (await t.request.post('/items/notes?fields=id,text').set(auth).send({ text: 'seven', n: 7 }).expect(200)).body.data;
    expect(await creates()).toHaveLength(1);
    expect(typeof first.id).toBe('number');
    expect([first.text, second.text, second.id - first.id]).toEqual(['six', 'seven', 1]);
    const schema = await t.context.schema.get();
    const notes = new ItemsService('notes', { ...t.system, schema });
    const key = await notes.createOne({ text: 'eight', n: 8 });
    expect(key).toBe(second.id + 1);
  });

  it("prepares a one-item write's activity statement once and binds each write's values, not a batch's", async () => {
    const activity = async () => (await preparedOn(t)).filter((text) => text.includes('insert into tessera_activity') && !text.includes('insert into "notes"'));
    await t.request.patch('/items/notes/1').set(auth).send({ n: 11 }).expect(200);
    await t.request.patch('/items/notes/2').set(auth).send({ n: 12 }).expect(200);
    expect(await activity()).toHaveLength(1);
    await t.request.patch('/items/notes').set(auth).send({ keys: [3, 4], data: { n: 34 } }).expect(200);
    expect(await activity()).toHaveLength(1);
    const revisions = await t.system.db
      .selectFrom('tessera_revisions')
      .select(['item', 'delta'])
      .where('collection', '=', 'notes')
      .orderBy('id', 'desc')
      .limit(4)
      .execute();
    expect(revisions.map((row) => [row.item, row.delta])).toEqual([
      ['4', { n: 34 }],
      ['3', { n: 34 }],
      ['2', { n: 12 }],
      ['1', { n: 11 }],
    ]);
  });
});

describe('DB_PREPARED_STATEMENTS=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_MAX: '1', DB_PREPARED_STATEMENTS: 'false' });
  });
  afterAll(() => t.close());

  it('runs every read unnamed, for poolers that cannot keep prepared statements', async () => {
    const auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request.get('/users?fields=email').set(auth).expect(200);
    await t.request.get('/roles?fields=name').set(auth).expect(200);
    expect(await preparedOn(t)).toEqual([]);
  });
});
