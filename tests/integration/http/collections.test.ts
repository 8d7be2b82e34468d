import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolesService } from '../../../server/services/roles-service.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { columnsOf, metadataOf, tableExists } from '../../helpers/schema-facts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const ARTICLES = {
  collection: 'articles',
  meta: { icon: 'article', note: 'News items', accountability: 'activity' },
  schema: {},
  fields: [
    { field: 'title', type: 'string', schema: { max_length: 200, is_nullable: false }, meta: { required: true, width: 'half' } },
    { field: 'body', type: 'text' },
    { field: 'price', type: 'decimal', schema: { numeric_precision: 8, numeric_scale: 2, default_value: '9.99' } },
    { field: 'published', type: 'boolean', schema: { default_value: false } },
    { field: 'tags', type: 'csv', meta: { special: ['cast-csv'] } },
    { field: 'status', type: 'string', schema: { default_value: 'draft' } },
  ],
};

describe('/collections', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  const db = () => t.system.db;
  const post = (body: unknown) => t.request.post('/collections').set('Authorization', `Bearer ${admin}`).send(body as object);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    const role = await new RolesService(t.system).create({ name: 'Editor', admin_access: false, app_access: true });
    await new UsersService(t.system).createOne({ email: 'editor@example.com', password: 'editor-password', role: role.id });
    editor = await t.login('editor@example.com', 'editor-password');
  });
  afterAll(() => t.close());

  it('creates a collection with its fields in one call: table, columns and metadata', async () => {
    const response = await post(ARTICLES).expect(200);
    expect(response.body.data).toMatchObject({ collection: 'articles', meta: { icon: 'article', note: 'News items', accountability: 'activity' }, schema: { name: 'articles' } });
    const columns = await columnsOf(db(), 'articles');
    expect(Object.keys(columns).sort()).toEqual(['body', 'id', 'price', 'published', 'status', 'tags', 'title']);
    expect(columns.id).toMatchObject({ data_type: 'integer', is_nullable: 'NO' });
    expect(columns.title).toMatchObject({ data_type: 'character varying', character_maximum_length: 200, is_nullable: 'NO' });
    expect(columns.price).toMatchObject({ data_type: 'numeric', column_default: '9.99' });
    expect(columns.published?.column_default).toBe('false');
    expect(columns.tags?.data_type).toBe('text');
    const { collections, fields } = await metadataOf(db(), 'articles');
    expect(collections).toHaveLength(1);
    expect(fields.map((row) => row.field).sort()).toEqual(['body', 'id', 'price', 'published', 'status', 'tags', 'title']);
    expect(fields.find((row) => row.field === 'tags')?.special).toBe('cast-csv');
    const inserted = await sql<{ id: number; status: string }>`insert into articles (title) values ('Hello') returning id, status`.execute(db());
    expect(inserted.rows[0]).toEqual({ id: 1, status: 'draft' });
  });

  it('reads collections back, system ones included', async () => {
    const list = await t.request.get('/collections').set('Authorization', `Bearer ${admin}`).expect(200);
    const names = list.body.data.map((item: { collection: string }) => item.collection);
    expect(names).toContain('articles');
    expect(names).toContain('tessera_users');
    const users = list.body.data.find((item: { collection: string }) => item.collection === 'tessera_users');
    expect(users).toMatchObject({ meta: { system: true, collection: 'tessera_users' }, schema: { name: 'tessera_users' } });
    const one = await t.request.get('/collections/articles').set('Authorization', `Bearer ${admin}`).expect(200);
    expect(one.body.data).toMatchObject({ collection: 'articles', meta: { icon: 'article', hidden: false, collapse: 'open' }, schema: { name: 'articles' } });
  });

  it('creates folder collections (schema: null) without a table', async () => {
    const response = await post({ collection: 'content', schema: null, meta: { icon: 'folder' } }).expect(200);
    expect(response.body.data).toEqual(expect.objectContaining({ collection: 'content', schema: null }));
    expect(await tableExists(db(), 'content')).toBe(false);
    await post({ collection: 'content_fail', schema: null, fields: [{ field: 'x', type: 'string' }] }).expect(400);
  });

  it('supports uuid and string primary keys', async () => {
    await post({ collection: 'tokens', fields: [{ field: 'id', type: 'uuid', schema: { is_primary_key: true } }, { field: 'label', type: 'string' }] }).expect(200);
    const uuid = await sql<{ id: string }>`insert into tokens (label) values ('a') returning id`.execute(db());
    expect(uuid.rows[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    const field = await t.request.get('/fields/tokens/id').set('Authorization', `Bearer ${admin}`).expect(200);
    expect(field.body.data).toMatchObject({ type: 'uuid', meta: { special: ['uuid'] }, schema: { is_primary_key: true, data_type: 'uuid' } });
    await post({ collection: 'countries', fields: [{ field: 'code', type: 'string', schema: { is_primary_key: true, max_length: 2 } }] }).expect(200);
    const countries = await columnsOf(db(), 'countries');
    expect(Object.keys(countries)).toEqual(['code']);
    expect(countries.code).toMatchObject({ character_maximum_length: 2, is_nullable: 'NO' });
  });

  it('updates the settings with PATCH', async () => {
    const patch = {
      meta: {
        note: 'Edited',
        color: '#FF0000',
        singleton: false,
        translations: [{ language: 'de-DE', translation: 'Artikel', singular: 'Artikel', plural: 'Artikel' }],
        sort_field: 'title',
        archive_field: 'status',
        archive_value: 'archived',
        unarchive_value: 'draft',
        accountability: null,
        item_duplication_fields: ['title'],
        group: 'content',
        collapse: 'closed',
      },
    };
    const response = await t.request.patch('/collections/articles').set('Authorization', `Bearer ${admin}`).send(patch).expect(200);
    expect(response.body.data.meta).toMatchObject({ ...patch.meta, icon: 'article' });
    const row = await db().selectFrom('tessera_collections').selectAll().where('collection', '=', 'articles').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ note: 'Edited', accountability: null, group: 'content', translations: patch.meta.translations });
  });

  it('answers bad settings with 400 naming the field and the allowed values', async () => {
    const patch = (meta: object) => t.request.patch('/collections/articles').set('Authorization', `Bearer ${admin}`).send({ meta }).expect(400);
    const accountability = await patch({ accountability: 'everything' });
    expect(accountability.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'meta.accountability' });
    expect(accountability.body.errors[0].message).toContain('all, activity, null');
    const collapse = await patch({ collapse: 'folded' });
    expect(collapse.body.errors[0].extensions.field).toBe('meta.collapse');
    expect(collapse.body.errors[0].message).toContain('open, closed, locked');
    const translation = await patch({ translations: [{ language: 'fr-FR' }] });
    expect(translation.body.errors[0].extensions.field).toBe('meta.translations[0].translation');
    expect((await patch({ sort_field: 'missing' })).body.errors[0].extensions.field).toBe('meta.sort_field');
    // Unknown meta keys are ignored as in Directus (tests/integration/http/directus-descriptors.test.ts).
    const created = await post({ collection: 'bad_meta', meta: { accountability: 'sometimes' } }).expect(400);
    expect(created.body.errors[0].extensions.field).toBe('meta.accountability');
    expect(await tableExists(db(), 'bad_meta')).toBe(false);
  });

  it('validates collection and field names', async () => {
    const names = ['bad-name', 'tessera_x', 'TESSERA_users', 'pg_class', 'a'.repeat(70), 'x"; drop table tessera_users; --', '1abc', 'articles; select 1', ''];
    for (const collection of names) {
      const response = await post({ collection }).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'collection' });
    }
    const field = await post({ collection: 'valid_name', fields: [{ field: 'ok', type: 'string' }, { field: 'no good', type: 'string' }] }).expect(400);
    expect(field.body.errors[0].extensions.field).toBe('fields[1].field');
    expect(await tableExists(db(), 'tessera_users')).toBe(true);
    expect(await tableExists(db(), 'valid_name')).toBe(false);
    await post({ collection: 'articles' }).expect(400);
    await post({ collection: 'a'.repeat(63) }).expect(200);
  });

  it('is atomic: a create whose third field fails leaves no table and no metadata', async () => {
    const fields = [
      { field: 'name', type: 'string' },
      { field: 'count', type: 'integer' },
      { field: 'ref', type: 'uuid', schema: { default_value: 'not-a-uuid' } },
    ];
    const response = await post({ collection: 'half_made', fields }).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'ref' });
    expect(await tableExists(db(), 'half_made')).toBe(false);
    const metadata = await metadataOf(db(), 'half_made');
    expect(metadata).toEqual({ collections: [], fields: [], relations: [] });
    const invalidType = await post({ collection: 'half_made', fields: [...fields.slice(0, 2), { field: 'x', type: 'money' }] }).expect(400);
    expect(invalidType.body.errors[0].extensions.field).toBe('fields[2].type');
    await t.request.get('/collections/half_made').set('Authorization', `Bearer ${admin}`).expect(403);
  });

  it('deletes a collection: table and metadata go, 204', async () => {
    await post({ collection: 'scratch', fields: [{ field: 'x', type: 'string' }] }).expect(200);
    await t.request.delete('/collections/scratch').set('Authorization', `Bearer ${admin}`).expect(204);
    expect(await tableExists(db(), 'scratch')).toBe(false);
    expect(await metadataOf(db(), 'scratch')).toEqual({ collections: [], fields: [], relations: [] });
    await t.request.get('/collections/scratch').set('Authorization', `Bearer ${admin}`).expect(403);
  });

  it('answers unknown and system collections with 403', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    await t.request.get('/collections/nothing_here').set(auth).expect(403);
    await t.request.patch('/collections/nothing_here').set(auth).send({ meta: { note: 'x' } }).expect(403);
    await t.request.delete('/collections/nothing_here').set(auth).expect(403);
    await t.request.patch('/collections/tessera_users').set(auth).send({ meta: { note: 'x' } }).expect(403);
    await t.request.delete('/collections/tessera_users').set(auth).expect(403);
    expect(await tableExists(db(), 'tessera_users')).toBe(true);
  });

  it('shows app users only the collections they may read, and refuses changes to non-admins and the public', async () => {
    const visible = await t.request.get('/collections').set('Authorization', `Bearer ${editor}`).expect(200);
    const names = visible.body.data.map((collection: { collection: string }) => collection.collection);
    expect(names).toContain('tessera_settings');
    expect(names).not.toContain('articles');
    expect(names).not.toContain('tessera_revisions');
    const list = await t.request.get('/collections').expect(403);
    expect(list.body.errors[0].extensions.code).toBe('FORBIDDEN');
    for (const headers of [{ Authorization: `Bearer ${editor}` }, {}]) {
      await t.request.get('/collections/articles').set(headers).expect(403);
      await t.request.post('/collections').set(headers).send({ collection: 'sneaky' }).expect(403);
      await t.request.patch('/collections/articles').set(headers).send({ meta: { note: 'x' } }).expect(403);
      await t.request.delete('/collections/articles').set(headers).expect(403);
    }
    expect(await tableExists(db(), 'sneaky')).toBe(false);
    expect(await tableExists(db(), 'articles')).toBe(true);
  });
});
