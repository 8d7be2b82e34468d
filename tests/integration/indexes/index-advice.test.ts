import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** The plan PostgreSQL chooses, as text. */
async function plan(t: TestApp, statement: ReturnType<typeof sql>): Promise<string> {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(t.system.db);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

async function indexNames(t: TestApp, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(t.system.db);
  return rows.map((row) => row.name).sort();
}

describe('index advice', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let editor: Record<string, string>;

  beforeAll(async () => {
    // Every sorted, filtered or searched read counts as slow: advice appears deterministically.
    t = await createTestApp({ INDEX_ADVICE_THRESHOLD: '0' });
    auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request
      .post('/collections')
      .set(auth)
      .send({
        collection: 'products',
        fields: [
          { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
          { field: 'name', type: 'string' },
          { field: 'status', type: 'string' },
          { field: 'price', type: 'integer' },
          { field: 'data', type: 'json' },
        ],
      })
      .expect(200);
    // Big enough that PostgreSQL prefers an index over scanning and sorting the table.
    await sql`insert into products (name, status, price) select 'product ' || md5(i::text), case when i % 10 = 0 then 'draft' else 'published' end, (i * 7919) % 100000 from generate_series(1, 50000) i`.execute(t.system.db);
    await sql`analyze products`.execute(t.system.db);
    const role = (await t.request.post('/roles').set(auth).send({ name: 'Editor', admin_access: false, app_access: true }).expect(200)).body.data.id;
    await t.request.post('/permissions').set(auth).send({ role, collection: 'products', action: 'read', fields: ['*'] }).expect(200);
    await t.request.post('/users').set(auth).send({ email: 'editor@example.com', password: 'editor-password-1', role }).expect(200);
    editor = { Authorization: `Bearer ${await t.login('editor@example.com', 'editor-password-1')}` };
  });
  afterAll(() => t.close());

  it('lists nothing before any read, and is for admins only (403 for others and the public)', async () => {
    expect((await t.request.get('/utils/index-advice').set(auth).expect(200)).body.data).toEqual([]);
    await t.request.get('/utils/index-advice').set(editor).expect(403);
    await t.request.get('/utils/index-advice').expect(403);
    await t.request.post('/utils/index-advice/apply').set(editor).send({ collection: 'products', columns: ['price'] }).expect(403);
  });

  it('advises a btree for a sort, equality filters before the sort column, and trigram for search', async () => {
    await t.request.get('/items/products').query({ sort: '-price', limit: 100 }).set(editor).expect(200);
    await t.request.get('/items/products').query({ sort: '-price', limit: 100 }).set(editor).expect(200);
    await t.request.get('/items/products').query({ filter: JSON.stringify({ status: { _eq: 'draft' } }), sort: 'name' }).set(auth).expect(200);
    await t.request.get('/items/products').query({ search: 'abc' }).set(auth).expect(200);
    // Reads by key and the primary key's own order need nothing.
    await t.request.get('/items/products/1').set(auth).expect(200);

    const advice = (await t.request.get('/utils/index-advice').query({ collection: 'products' }).set(auth).expect(200)).body.data as Array<Record<string, any>>;
    const byIndex = new Map(advice.map((item) => [item.index.name, item]));
    expect([...byIndex.keys()].sort()).toEqual(['products_name_trgm_index', 'products_price_index', 'products_status_name_index', 'products_status_trgm_index']);
    expect(byIndex.get('products_price_index')).toMatchObject({
      collection: 'products',
      shape: { sort: ['-price'], filter: {}, search: false },
      count: 2,
      index: { kind: 'btree', columns: ['price'] },
    });
    expect(byIndex.get('products_price_index')!.p95_ms).toBeGreaterThan(0);
    expect(byIndex.get('products_status_name_index')).toMatchObject({ shape: { sort: ['name'], filter: { status: 'equality' } }, index: { columns: ['status', 'name'] } });
    expect(byIndex.get('products_name_trgm_index')).toMatchObject({ shape: { search: true }, index: { kind: 'trigram', columns: ['name'] } });
    expect((await t.request.get('/utils/index-advice').query({ collection: 'other' }).set(auth).expect(200)).body.data).toEqual([]);
  });

  it('a threshold above the recorded times lists nothing', async () => {
    const strict = await createTestApp({ INDEX_ADVICE_THRESHOLD: '1h' });
    try {
      const token = { Authorization: `Bearer ${await strict.login()}` };
      await strict.request.post('/collections').set(token).send({ collection: 'things', fields: [{ field: 'label', type: 'string' }] }).expect(200);
      await strict.request.get('/items/things').query({ sort: 'label', filter: JSON.stringify({ label: { _eq: 'x' } }) }).set(token).expect(200);
      expect((await strict.request.get('/utils/index-advice').set(token).expect(200)).body.data).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('apply builds the advised index concurrently; then the sort uses it and the advice is gone', async () => {
    const sortSql = sql`select id, price from products order by price desc limit 100`;
    expect(await plan(t, sortSql)).not.toMatch(/Index Scan.*products_price_index/);
    const applied = await t.request.post('/utils/index-advice/apply').set(auth).send({ collection: 'products', columns: ['price'], kind: 'btree' }).expect(200);
    expect(applied.body.data).toEqual({ collection: 'products', columns: ['price'], kind: 'btree', name: 'products_price_index', created: true });
    expect(await indexNames(t, 'products')).toContain('products_price_index');
    expect(await plan(t, sortSql)).toMatch(/Index Scan Backward using products_price_index/);
    // The field now reads as indexed, and applying again creates nothing.
    expect((await t.request.get('/fields/products/price').set(auth).expect(200)).body.data.schema.is_indexed).toBe(true);
    expect((await t.request.post('/utils/index-advice/apply').set(auth).send({ collection: 'products', columns: ['price'] }).expect(200)).body.data.created).toBe(false);
    const advice = (await t.request.get('/utils/index-advice').set(auth).expect(200)).body.data as Array<{ index: { name: string } }>;
    expect(advice.map((item) => item.index.name)).not.toContain('products_price_index');
  });

  it('a trigram index serves ?search= (ILIKE %term%), seen in EXPLAIN', async () => {
    await t.request.post('/utils/index-advice/apply').set(auth).send({ collection: 'products', columns: ['name'], kind: 'trigram' }).expect(200);
    await t.request.post('/utils/index-advice/apply').set(auth).send({ collection: 'products', columns: ['status'], kind: 'trigram' }).expect(200);
    await sql`analyze products`.execute(t.system.db);
    expect(await indexNames(t, 'products')).toEqual(expect.arrayContaining(['products_name_trgm_index', 'products_status_trgm_index']));
    // The statement ?search= compiles to, with the term as the API binds it.
    const searchSql = sql`select id from products where (name ilike ${'%abcd%'} or status ilike ${'%abcd%'})`;
    expect(await plan(t, searchSql)).toMatch(/Bitmap Index Scan on products_name_trgm_index/);
    const found = await t.request.get('/items/products').query({ search: 'product 0cc175', fields: 'name' }).set(auth).expect(200);
    expect(found.body.data.every((item: { name: string }) => item.name.includes('0cc175'))).toBe(true);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: Array<[object, string]> = [
      [{ collection: 'nope', columns: ['x'] }, 'collection'],
      [{ collection: 'tessera_users', columns: ['email'] }, 'collection'],
      [{ collection: 'products', columns: ['missing'] }, 'columns[0]'],
      [{ collection: 'products', columns: ['data'] }, 'columns[0]'],
      [{ collection: 'products', columns: ['price'], kind: 'trigram' }, 'columns[0]'],
      [{ collection: 'products', columns: ['name', 'status'], kind: 'trigram' }, 'columns'],
      [{ collection: 'products', columns: [] }, 'columns'],
      [{ collection: 'products', columns: ['price'], kind: 'hash' }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const response = await t.request.post('/utils/index-advice/apply').set(auth).send(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errors[0].extensions.field, JSON.stringify(body)).toBe(field);
    }
  });
});
