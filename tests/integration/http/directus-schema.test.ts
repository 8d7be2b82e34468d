import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshot } from '../../../server/snapshot/load-snapshot.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const fieldMeta = (collection: string, field: string, extra: Record<string, unknown> = {}) => ({
  id: 1,
  collection,
  field,
  conditions: null,
  display: null,
  display_options: null,
  group: null,
  hidden: false,
  interface: 'input',
  note: null,
  options: null,
  readonly: false,
  required: false,
  sort: null,
  special: null,
  translations: null,
  validation: null,
  validation_message: null,
  searchable: true,
  width: 'full',
  ...extra,
});

const column = (table: string, name: string, data_type: string, extra: Record<string, unknown> = {}) => ({
  name,
  table,
  data_type,
  default_value: null,
  max_length: null,
  numeric_precision: null,
  numeric_scale: null,
  is_nullable: true,
  is_unique: false,
  is_indexed: false,
  is_primary_key: false,
  is_generated: false,
  generation_expression: null,
  has_auto_increment: false,
  foreign_key_table: null,
  foreign_key_column: null,
  ...extra,
});

/** A snapshot as Directus 10 writes it (GET /schema/snapshot there), with its database-reported facts. */
const DIRECTUS_SNAPSHOT = {
  version: 1,
  directus: '10.13.1',
  vendor: 'postgres',
  collections: [
    {
      collection: 'articles',
      meta: { collection: 'articles', accountability: 'all', archive_app_filter: true, archive_field: null, archive_value: null, collapse: 'open', color: null, display_template: '{{title}}', group: null, hidden: false, icon: 'article', item_duplication_fields: null, note: 'From Directus', preview_url: null, singleton: false, sort: null, sort_field: null, translations: null, unarchive_value: null, versioning: false },
      schema: { name: 'articles', schema: 'public', comment: null },
    },
  ],
  fields: [
    {
      collection: 'articles',
      field: 'id',
      type: 'integer',
      meta: fieldMeta('articles', 'id', { hidden: true, readonly: true }),
      schema: column('articles', 'id', 'integer', { default_value: "nextval('articles_id_seq'::regclass)", numeric_precision: 32, numeric_scale: 0, is_nullable: false, is_unique: true, is_primary_key: true, has_auto_increment: true }),
    },
    { collection: 'articles', field: 'title', type: 'string', meta: fieldMeta('articles', 'title', { required: true }), schema: column('articles', 'title', 'character varying', { max_length: 255 }) },
    {
      collection: 'articles',
      field: 'date_created',
      type: 'timestamp',
      meta: fieldMeta('articles', 'date_created', { special: ['date-created'], readonly: true }),
      schema: column('articles', 'date_created', 'timestamp with time zone', { default_value: 'CURRENT_TIMESTAMP' }),
    },
    {
      collection: 'articles',
      field: 'author',
      type: 'uuid',
      meta: fieldMeta('articles', 'author', { special: ['m2o'], interface: 'select-dropdown-m2o' }),
      schema: column('articles', 'author', 'uuid', { foreign_key_table: 'directus_users', foreign_key_column: 'id' }),
    },
  ],
  relations: [
    {
      collection: 'articles',
      field: 'author',
      related_collection: 'directus_users',
      meta: { id: 3, junction_field: null, many_collection: 'articles', many_field: 'author', one_allowed_collections: null, one_collection: 'directus_users', one_collection_field: null, one_deselect_action: 'nullify', one_field: null, sort_field: null },
      schema: { table: 'articles', column: 'author', foreign_key_table: 'directus_users', foreign_key_column: 'id', foreign_key_schema: 'public', constraint_name: 'articles_author_foreign', on_update: 'NO ACTION', on_delete: 'SET NULL' },
    },
  ],
};

/** Directus schema documents: a Directus snapshot imports, field-meta changes apply. */
describe('Directus /schema compatibility', () => {
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    auth = { Authorization: `Bearer ${await t.login()}` };
  });
  afterAll(() => t.close());

  it('imports a Directus snapshot through /schema/diff and /schema/apply', async () => {
    const diff = await t.request.post('/schema/diff').set(auth).send(DIRECTUS_SNAPSHOT);
    expect(diff.status, JSON.stringify(diff.body)).toBe(200);
    const applied = await t.request.post('/schema/apply').set(auth).send(diff.body.data);
    expect(applied.status, JSON.stringify(applied.body)).toBe(204);
    const fields = (await t.request.get('/fields/articles').set(auth).expect(200)).body.data;
    expect(fields.map((field: { field: string }) => field.field).sort()).toEqual(['author', 'date_created', 'id', 'title']);
    const relation = (await t.request.get('/relations/articles/author').set(auth).expect(200)).body.data;
    expect(relation).toMatchObject({ related_collection: 'tessera_users', schema: { on_delete: 'SET NULL' } });
    const item = await t.request.post('/items/articles').set(auth).send({ title: 'Imported' }).expect(200);
    expect(item.body.data).toMatchObject({ id: 1, title: 'Imported', date_created: expect.any(String) });
    await t.request.post('/schema/diff').set(auth).send(DIRECTUS_SNAPSHOT).expect(204);
  });

  it('reads a Directus snapshot file as `tessera apply` does', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'tessera-directus-'));
    try {
      const file = path.join(folder, 'snapshot.json');
      await writeFile(file, JSON.stringify(DIRECTUS_SNAPSHOT));
      const document = loadSnapshot(file);
      expect(document.version).toBe(2);
      expect(document.relations).toEqual([expect.objectContaining({ collection: 'articles', field: 'author', related_collection: 'tessera_users' })]);
      expect(document.fields.find((field) => field.field === 'id')?.schema).toMatchObject({ default_value: null, is_primary_key: true, has_auto_increment: true });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('applies a diff whose only changes are field metadata', async () => {
    const snapshot = (await t.request.get('/schema/snapshot').set(auth).expect(200)).body.data;
    const changed = structuredClone(snapshot);
    const title = changed.fields.find((field: { collection: string; field: string }) => field.collection === 'articles' && field.field === 'title');
    // Directus clients send field meta with keys Tessera does not keep (validation, searchable …).
    title.meta = { ...title.meta, note: 'The headline', width: 'half', options: { trim: true }, validation: null, validation_message: null, searchable: true };
    const diff = await t.request.post('/schema/diff').set(auth).send(changed).expect(200);
    const applied = await t.request.post('/schema/apply').set(auth).send(diff.body.data);
    expect(applied.status, JSON.stringify(applied.body)).toBe(204);
    expect((await t.request.get('/fields/articles/title').set(auth).expect(200)).body.data.meta).toMatchObject({ note: 'The headline', width: 'half', options: { trim: true } });
  });
});
