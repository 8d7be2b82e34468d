import type { CompiledQuery, Kysely, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { readSchemaOverview } from '../../../server/schema/read-schema.ts';
import { createSchemaCache } from '../../../server/schema/schema-cache.ts';
import { CollectionsService } from '../../../server/services/collections-service.ts';
import { FieldsService } from '../../../server/services/fields-service.ts';
import { RelationsService } from '../../../server/services/relations-service.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../helpers/test-app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** `db` with every statement it sends recorded, compiled (SQL text and parameters). */
function recorded(db: Kysely<any>): { db: Kysely<any>; statements: CompiledQuery[] } {
  const statements: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      statements.push(db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  return { db: db.withPlugin(plugin), statements };
}

/** Statements that read the schema: the catalog or the metadata tables. */
const SCHEMA_READ = /pg_attribute|pg_constraint|pg_index|information_schema|from "tessera_(collections|fields|relations)"/;

describe('the schema overview re-reads only the collections a change touched', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const collections = new CollectionsService(t.system, t.context.schema);
    for (const name of ['alpha', 'bravo', 'charlie']) await collections.createOne({ collection: name, fields: [{ field: 'title', type: 'string' }] });
    await new FieldsService(t.system, t.context.schema).createOne('bravo', { field: 'alpha', type: 'integer' });
    await new RelationsService(t.system, t.context.schema).createOne({ collection: 'bravo', field: 'alpha', related_collection: 'alpha', meta: { one_field: 'bravos' } });
    await new CollectionsService(t.system, t.context.schema).createOne({ collection: 'folder', meta: { note: 'a folder' }, schema: null });
  });
  afterAll(() => t.close());

  it('adding a field to one collection reads that table and its metadata only, by name', async () => {
    const log = recorded(t.context.database.kysely());
    const cache = createSchemaCache(() => log.db);
    const before = await cache.get();
    // The first build reads everything, with no table named.
    expect(log.statements.filter((statement) => SCHEMA_READ.test(statement.sql)).every((statement) => statement.parameters.length === 0)).toBe(true);
    log.statements.length = 0;

    const context = { ...t.system, db: log.db };
    await new FieldsService(context, cache).createOne('charlie', { field: 'added', type: 'string' });
    const after = await cache.get();

    const reads = log.statements.filter((statement) => SCHEMA_READ.test(statement.sql));
    // Columns, primary keys, uniques, foreign keys, indexes; collections, fields, relations: each once, for charlie.
    expect(reads).toHaveLength(8);
    for (const statement of reads) expect(statement.parameters).toEqual([['charlie']]);
    expect(after.collections.charlie!.fields.added).toMatchObject({ type: 'string', dbType: 'character varying' });
    // What was not re-read is the very same object.
    expect(after.collections.alpha).toBe(before.collections.alpha);
    expect(after.collections.bravo).toBe(before.collections.bravo);
    expect(after.collections.tessera_users).toBe(before.collections.tessera_users);
  });

  it('a relation change re-reads both of its collections, and the patched overview equals a whole read', async () => {
    const log = recorded(t.context.database.kysely());
    const cache = createSchemaCache(() => log.db);
    await cache.get();
    log.statements.length = 0;
    const context = { ...t.system, db: log.db };
    await new FieldsService(context, cache).createOne('charlie', { field: 'bravo', type: 'integer' });
    await new RelationsService(context, cache).createOne({ collection: 'charlie', field: 'bravo', related_collection: 'bravo', meta: { one_field: 'charlies' } });
    const named = new Set(log.statements.filter((statement) => SCHEMA_READ.test(statement.sql)).flatMap((statement) => statement.parameters.flat()));
    expect([...named].sort()).toEqual(['alpha', 'bravo', 'charlie']);

    await new FieldsService(context, cache).updateOne('bravo', 'title', { schema: { is_nullable: false, is_indexed: true }, meta: { note: 'changed' } });
    await new FieldsService(context, cache).deleteOne('bravo', 'alpha');
    await new CollectionsService(context, cache).updateOne('folder', { meta: { note: 'renamed' } });
    await new CollectionsService(context, cache).deleteOne('alpha');
    const patched = await cache.get();
    const whole = await readSchemaOverview(t.context.database.kysely());
    expect(patched).toEqual(whole);
    expect(patched.collections.bravo!.fields.charlies).toMatchObject({ alias: true, special: ['o2m'] });
    expect(patched.collections.bravo!.fields.title).toMatchObject({ nullable: false, indexed: true });
    expect(patched.collections.alpha).toBeUndefined();
    expect(patched.relations.some((relation) => relation.relatedCollection === 'alpha')).toBe(false);
  });

  it('a transaction of several changes patches its own overview through its connection', async () => {
    // The tests above changed the schema through caches of their own: start this one from the database.
    t.context.schema.invalidate();
    await t.context.schema.get();
    const fields = new FieldsService(t.system, t.context.schema);
    const response = await fields.updateMany('charlie', [
      { field: 'title', meta: { note: 'first' } },
      { field: 'added', type: 'text' },
    ]);
    expect(response.map((field) => [field.field, field.type])).toEqual([
      ['title', 'string'],
      ['added', 'text'],
    ]);
    expect((await t.context.schema.get()).collections.charlie!.fields.added!.type).toBe('text');
    expect(await t.context.schema.get()).toEqual(await readSchemaOverview(t.context.database.kysely()));
  });
});

describe('two instances (Redis): a change made on one is patched in on the other', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof createSecondInstance>>;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL });
    second = await createSecondInstance(t, { REDIS_URL });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('a field added on A shows on B, which re-read only that collection', async () => {
    const token = await t.login();
    const auth = { Authorization: `Bearer ${token}` };
    for (const name of ['kept', 'grown']) await t.request.post('/collections').set(auth).send({ collection: name, fields: [{ field: 'title', type: 'string' }] }).expect(200);
    const seen = await eventually(async () => {
      const overview = await second.context.schema.get();
      expect(Object.keys(overview.collections)).toEqual(expect.arrayContaining(['kept', 'grown']));
      return overview;
    });

    await t.request.post('/fields/grown').set(auth).send({ field: 'late', type: 'integer' }).expect(200);
    await eventually(async () => {
      const response = await second.request.get('/fields/grown').set(auth).expect(200);
      expect(response.body.data.map((field: { field: string }) => field.field)).toContain('late');
    });
    const now = await second.context.schema.get();
    expect(now.collections.grown).not.toBe(seen.collections.grown);
    expect(now.collections.kept).toBe(seen.collections.kept);
    expect(now.collections.tessera_users).toBe(seen.collections.tessera_users);
  });
});

describe('a change of permissions re-reads no collection but starts every per-overview cache over', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a restricted reader sees the new rule at once (compiled reads are kept per overview)', async () => {
    const auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request.post('/collections').set(auth).send({ collection: 'memos', fields: [{ field: 'text', type: 'string' }] }).expect(200);
    await t.request.post('/items/memos').set(auth).send([{ text: 'open' }, { text: 'closed' }]).expect(200);
    const role = (await t.request.post('/roles').set(auth).send({ name: 'Memo reader' }).expect(200)).body.data.id;
    await t.request.post('/users').set(auth).send({ email: 'memo@example.com', password: 'memo-password-1', role, status: 'active' }).expect(200);
    const reader = { Authorization: `Bearer ${await t.login('memo@example.com', 'memo-password-1')}` };
    const permission = (
      await t.request.post('/permissions').set(auth).send({ role, collection: 'memos', action: 'read', fields: ['text'], permissions: { text: { _eq: 'open' } } }).expect(200)
    ).body.data.id;
    const read = async () => (await t.request.get('/items/memos?sort=text').set(reader).expect(200)).body.data;
    expect(await read()).toEqual([{ text: 'open' }]);
    expect(await read()).toEqual([{ text: 'open' }]);

    const before = await t.context.schema.get();
    await t.request.patch(`/permissions/${permission}`).set(auth).send({ permissions: { text: { _eq: 'closed' } } }).expect(200);
    expect(await read()).toEqual([{ text: 'closed' }]);
    const after = await t.context.schema.get();
    expect(after).not.toBe(before);
    expect(after.collections.memos).toBe(before.collections.memos);
  });
});

describe('schema lists are built once per overview and visibility', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /fields, /collections and /relations answer the same bytes until the schema changes', async () => {
    const auth = { Authorization: `Bearer ${await t.login()}` };
    await t.request.post('/collections').set(auth).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }] }).expect(200);
    const context = t.context.servicesContext(systemAccountability());
    const fields = new FieldsService(context, t.context.schema);
    const first = await fields.readAll();
    expect(await fields.readAll()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const before = (await t.request.get('/fields').set(auth).expect(200).expect('Content-Type', /json/)).body.data;
    expect(before).toEqual(JSON.parse(JSON.stringify(first)));
    for (const path of ['/collections', '/relations']) await t.request.get(path).set(auth).expect(200).expect('Content-Type', /json/);

    await t.request.post('/fields/notes').set(auth).send({ field: 'extra', type: 'integer' }).expect(200);
    const after = (await t.request.get('/fields').set(auth).expect(200)).body.data;
    expect(after).toHaveLength(before.length + 1);
    expect(await fields.readAll()).not.toBe(first);
  });
});
