import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Indexes of a table as pg_indexes lists them, with their validity. */
async function indexesOf(t: TestApp, table: string): Promise<Array<{ name: string; definition: string; valid: boolean }>> {
  const { rows } = await sql<{ name: string; definition: string; valid: boolean }>`
    select ix.indexname as name, ix.indexdef as definition, i.indisvalid as valid
      from pg_indexes ix join pg_class c on c.relname = ix.indexname join pg_index i on i.indexrelid = c.oid
     where ix.schemaname = current_schema() and ix.tablename = ${table} order by ix.indexname`.execute(t.system.db);
  return rows;
}

describe('schema.is_indexed', () => {
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request
      .post('/collections')
      .set(auth)
      .send({
        collection: 'articles',
        fields: [
          { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
          { field: 'title', type: 'string' },
          { field: 'rank', type: 'integer', schema: { is_indexed: true } },
          { field: 'slug', type: 'string', schema: { is_unique: true } },
        ],
      })
      .expect(200);
  });
  afterAll(() => t.close());

  it('is read from the catalog: a plain btree index on the column, not the primary key or a unique constraint', async () => {
    const fields = (await t.request.get('/fields/articles').set(auth).expect(200)).body.data as Array<{ field: string; schema: { is_indexed: boolean } }>;
    expect(Object.fromEntries(fields.map((field) => [field.field, field.schema.is_indexed]))).toEqual({ id: false, title: false, rank: true, slug: false });
    expect((await indexesOf(t, 'articles')).map((index) => index.name)).toContain('articles_rank_index');

    // An index made outside Tessera counts too.
    await sql`create index outside_title on articles (title)`.execute(t.system.db);
    await t.request.post('/utils/cache/clear').set(auth).expect(200);
    expect((await t.request.get('/fields/articles/title').set(auth).expect(200)).body.data.schema.is_indexed).toBe(true);
    await sql`drop index outside_title`.execute(t.system.db);
    await t.request.post('/utils/cache/clear').set(auth).expect(200);
  });

  it('PATCH true builds <table>_<column>_index concurrently, false drops it', async () => {
    await sql`insert into articles (title, rank) select 'title ' || i, i from generate_series(1, 500) i`.execute(t.system.db);
    const on = await t.request.patch('/fields/articles/title').set(auth).send({ schema: { is_indexed: true } }).expect(200);
    expect(on.body.data.schema.is_indexed).toBe(true);
    const index = (await indexesOf(t, 'articles')).find((item) => item.name === 'articles_title_index');
    expect(index).toMatchObject({ valid: true });
    expect(index!.definition).toMatch(/USING btree \(title\)/);

    const off = await t.request.patch('/fields/articles/title').set(auth).send({ schema: { is_indexed: false } }).expect(200);
    expect(off.body.data.schema.is_indexed).toBe(false);
    expect((await indexesOf(t, 'articles')).map((item) => item.name)).not.toContain('articles_title_index');
  });

  it('POST /fields with is_indexed creates the column and its index', async () => {
    const created = await t.request.post('/fields/articles').set(auth).send({ field: 'published_on', type: 'date', schema: { is_indexed: true } }).expect(200);
    expect(created.body.data.schema.is_indexed).toBe(true);
    expect((await indexesOf(t, 'articles')).map((item) => item.name)).toContain('articles_published_on_index');
  });

  it('a failed concurrent build leaves no INVALID index behind and answers 400 naming the field', async () => {
    // A value past btree's row limit (2704 bytes): the concurrent build fails after it registered the index.
    await sql`insert into articles (title, rank) values ('huge', 0)`.execute(t.system.db);
    await t.request.post('/fields/articles').set(auth).send({ field: 'body', type: 'text' }).expect(200);
    await sql`update articles set body = (select string_agg(md5(random()::text), '') from generate_series(1, 300)) where title = 'huge'`.execute(t.system.db);
    const response = await t.request.patch('/fields/articles/body').set(auth).send({ schema: { is_indexed: true } }).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'body' });
    expect(response.body.errors[0].message).toMatch(/index/i);
    expect((await indexesOf(t, 'articles')).filter((item) => item.name === 'articles_body_index' || !item.valid)).toEqual([]);
    expect((await t.request.get('/fields/articles/body').set(auth).expect(200)).body.data.schema.is_indexed).toBe(false);
  });

  it('PATCH /fields/:collection sets several in one transaction (plain CREATE INDEX there)', async () => {
    await t.request
      .patch('/fields/articles')
      .set(auth)
      .send([
        { field: 'title', schema: { is_indexed: true } },
        { field: 'rank', schema: { is_indexed: false } },
      ])
      .expect(200);
    const names = (await indexesOf(t, 'articles')).map((item) => item.name);
    expect(names).toContain('articles_title_index');
    expect(names).not.toContain('articles_rank_index');
  });

  it('rejects a non-boolean is_indexed with a 400 naming it, and non-admins get 403', async () => {
    const bad = await t.request.patch('/fields/articles/title').set(auth).send({ schema: { is_indexed: 'yes please' } }).expect(400);
    expect(bad.body.errors[0].extensions.field).toBe('schema.is_indexed');
    await t.request.patch('/fields/articles/title').send({ schema: { is_indexed: false } }).expect(403);
  });
});
