import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFolder } from '../../../server/snapshot/load-snapshot.ts';
import type { SnapshotDocument } from '../../../server/snapshot/types.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { EXAMPLE_FOLDER, snapshotService } from './snapshot-helpers.ts';

/** What a failed apply must leave exactly as it was. */
async function footprint(app: TestApp) {
  const db = app.context.database.kysely();
  const { rows: tables } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name not like 'tessera\\_%' order by 1`.execute(db);
  const count = async (table: string) => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    tables: tables.map((row) => row.name),
    collections: await count('tessera_collections'),
    fields: await count('tessera_fields'),
    relations: await count('tessera_relations'),
    roles: await count('tessera_roles'),
    permissions: await count('tessera_permissions'),
    settings: await db.selectFrom('tessera_settings').selectAll().executeTakeFirst(),
  };
}

describe('apply is one transaction', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('a step failing at the very end (a settings value the database refuses) leaves no trace, DDL included', async () => {
    const before = await footprint(app);
    const broken: SnapshotDocument = { ...loadSnapshotFolder(EXAMPLE_FOLDER) };
    broken.settings = { ...broken.settings, default_appearance: 'neon' };
    const error = await snapshotService(app).apply(broken).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^settings settings \(update\): /);
    expect(await footprint(app)).toEqual(before);
    expect(before.tables).toEqual([]);
  });

  it('settings lists follow the same SPEC §5 rules as an API write (a basemap without url is refused, nothing applied)', async () => {
    const before = await footprint(app);
    const broken: SnapshotDocument = { ...loadSnapshotFolder(EXAMPLE_FOLDER) };
    broken.settings = { ...broken.settings, basemaps: [{ name: 'OSM', type: 'raster' }] };
    const error = await snapshotService(app).apply(broken).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/basemaps\[0\]: url is required/);
    expect(await footprint(app)).toEqual(before);
  });

  it('a failure injected after every step rolls back tables, metadata, roles, permissions and settings', async () => {
    const before = await footprint(app);
    const progress: string[] = [];
    const error = await snapshotService(app)
      .apply(loadSnapshotFolder(EXAMPLE_FOLDER), {
        onProgress: (step) => progress.push(`${step.kind} ${step.name}`),
        beforeCommit: async (trx) => {
          // Everything is in place inside the transaction…
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from posts`.execute(trx);
          expect(rows[0]!.n).toBe(0);
          throw new Error('injected failure');
        },
      })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('injected failure');
    expect(progress).toContain('collection posts');
    expect(progress).toContain('roles Editor');
    // …and nothing is left once it failed.
    expect(await footprint(app)).toEqual(before);
    // The schema cache forgot nothing it should not have: the app still works and knows no "posts".
    const token = await app.login();
    await app.request.get('/items/posts').set('Authorization', `Bearer ${token}`).expect(403);
  });

  it('two applies at once serialise: one does the work, the other finds nothing left to do', async () => {
    const document = loadSnapshotFolder(EXAMPLE_FOLDER);
    const [first, second] = await Promise.all([snapshotService(app).apply(document), snapshotService(app).apply(document)]);
    expect([first.applied, second.applied].sort()).toEqual([false, true]);
    expect((await snapshotService(app).plan(document)).plan.steps).toEqual([]);
  });
});

describe('the data-loss guard', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await createTestApp();
    await snapshotService(app).apply(loadSnapshotFolder(EXAMPLE_FOLDER));
    token = await app.login();
    await app.request.post('/items/posts').set('Authorization', `Bearer ${token}`).send({ title: 'Post number 1', slug: 'post-1', body: 'Body 1' }).expect(200);
    await sql`insert into posts (title, slug, body) select 'Post number ' || n, 'post-' || n, 'Body ' || n from generate_series(2, 1203) n`.execute(app.context.database.kysely());
  });
  afterAll(() => app.close());

  const withoutBody = (): SnapshotDocument => {
    const document = loadSnapshotFolder(EXAMPLE_FOLDER);
    return { ...document, fields: document.fields.filter((field) => !(field.collection === 'posts' && field.field === 'body')) };
  };

  it('flags a dropped field with the number of values at stake and refuses it', async () => {
    const { plan } = await snapshotService(app).plan(withoutBody());
    expect(plan.steps).toEqual([expect.objectContaining({ kind: 'field', action: 'delete', name: 'posts.body', dataLoss: { count: 1203, message: 'drops field body: 1,203 non-null values' } })]);
    const error = await snapshotService(app).apply(withoutBody()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'DATA_LOSS', status: 400 });
    expect((error as Error).message).toContain('drops field body: 1,203 non-null values');
    const { rows } = await sql<{ n: number }>`select count(body)::int as n from posts`.execute(app.context.database.kysely());
    expect(rows[0]!.n).toBe(1203);
  });

  it('flags narrowing a type that holds data and dropping a collection that has rows', async () => {
    const document = loadSnapshotFolder(EXAMPLE_FOLDER);
    const narrowed: SnapshotDocument = {
      ...document,
      fields: document.fields.map((field) => (field.collection === 'posts' && field.field === 'title' ? { ...field, schema: { ...field.schema!, max_length: 10 } } : field)),
    };
    const { plan } = await snapshotService(app).plan(narrowed);
    expect(plan.steps).toEqual([
      expect.objectContaining({ name: 'posts.title', action: 'update', changes: [{ path: 'schema.max_length', from: 255, to: 10 }], dataLoss: { count: 1203, message: 'narrows field title (string(255) → string(10)): 1,203 values are longer than 10' } }),
    ]);
    // Only the values that do not fit count: every title is at most 16 characters.
    const roomy = { ...narrowed, fields: narrowed.fields.map((field) => (field.field === 'title' && field.collection === 'posts' ? { ...field, schema: { ...field.schema!, max_length: 16 } } : field)) };
    expect((await snapshotService(app).plan(roomy)).plan.steps[0]!.dataLoss).toBeUndefined();
    const bodyToString = { ...document, fields: document.fields.map((field) => (field.collection === 'posts' && field.field === 'body' ? { ...field, type: 'string', schema: { ...field.schema!, max_length: 6 } } : field)) };
    expect((await snapshotService(app).plan(bodyToString)).plan.steps[0]!.dataLoss).toEqual({ count: 1194, message: 'narrows field body (text → string(6)): 1,194 values are longer than 6' });
    const widened = { ...document, fields: document.fields.map((field) => (field.collection === 'posts' && field.field === 'title' ? { ...field, schema: { ...field.schema!, max_length: 500 } } : field)) };
    expect((await snapshotService(app).plan(widened)).plan.steps[0]!.dataLoss).toBeUndefined();

    const dropped: SnapshotDocument = {
      ...document,
      collections: document.collections.filter((collection) => collection.collection !== 'authors'),
      fields: document.fields.filter((field) => field.collection !== 'authors' && !(field.collection === 'posts' && field.field === 'author')),
      relations: document.relations.filter((relation) => relation.field !== 'author'),
    };
    await app.request.post('/items/authors').set('Authorization', `Bearer ${token}`).send({ name: 'Ada' }).expect(200);
    const steps = (await snapshotService(app).plan(dropped)).plan.steps;
    expect(steps.find((step) => step.kind === 'collection')).toMatchObject({ action: 'delete', name: 'authors', dataLoss: { count: 1, message: 'drops collection authors: 1 row' } });
  });

  it('applies changes to existing fields, relations and collections, then has nothing left to do', async () => {
    const document = loadSnapshotFolder(EXAMPLE_FOLDER);
    const changed: SnapshotDocument = {
      ...document,
      collections: document.collections.map((collection) => (collection.collection === 'authors' ? { ...collection, meta: { ...collection.meta, note: 'Writers' } } : collection)),
      fields: document.fields.map((field) =>
        field.collection === 'posts' && field.field === 'title' ? { ...field, meta: { ...field.meta, note: 'Keep it short' }, schema: { ...field.schema!, max_length: 300 } } : field,
      ),
      relations: document.relations.map((relation) => (relation.field === 'author' ? { ...relation, schema: { on_delete: 'CASCADE' } } : relation)),
    };
    const result = await snapshotService(app).apply(changed);
    expect(result.plan.steps.map((step) => `${step.action} ${step.kind} ${step.name}`)).toEqual(['update collection authors', 'update field posts.title', 'update relation posts.author']);
    expect((await snapshotService(app).plan(changed)).plan.steps).toEqual([]);
    const db = app.context.database.kysely();
    const { rows } = await sql<{ length: number }>`select character_maximum_length as length from information_schema.columns where table_name = 'posts' and column_name = 'title'`.execute(db);
    expect(rows[0]!.length).toBe(300);
    // Back to the example: narrowing again, but every title fits in 255, so nothing is at stake.
    expect((await snapshotService(app).apply(document)).applied).toBe(true);
  });

  it('applies the loss when allowed, and a dry run changes nothing', async () => {
    const dry = await snapshotService(app).apply(withoutBody(), { dryRun: true, allowDataLoss: true });
    expect(dry.applied).toBe(false);
    const db = app.context.database.kysely();
    const columns = async () => (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = 'posts'`.execute(db)).rows.map((row) => row.name);
    expect(await columns()).toContain('body');
    const result = await snapshotService(app).apply(withoutBody(), { allowDataLoss: true });
    expect(result.applied).toBe(true);
    expect(await columns()).not.toContain('body');
    expect((await snapshotService(app).plan(withoutBody())).plan.steps).toEqual([]);
  });
});
