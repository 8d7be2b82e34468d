import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../server/errors.ts';
import { EXTENSION_POOL_NAME, extensionDatabase } from '../../../server/extensions/context/database.ts';
import { createExtensionServices } from '../../../server/extensions/context/services.ts';
import { createEmbeddedApp } from '../../helpers/embedded-app.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The `database` of an extension's context (docs/extensions-context.md): a knex pool made on first use and
 * closed by close(), and transaction handles that make services join a Tessera write.
 */
describe('extension context database', () => {
  let t: TestApp;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const names = async () => (await t.system.db.selectFrom('log').select('name').orderBy('name').execute()).map((row) => row.name as string);
  const poolConnections = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from pg_stat_activity where application_name = ${EXTENSION_POOL_NAME} and datname = current_database()`.execute(t.system.db)).rows[0]!.n,
    );

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.login();
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'notes', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'log', fields: [{ field: 'name', type: 'string' }] }).expect(200);
  });
  afterAll(async () => {
    await extensionDatabase(t.context).close();
    await t.close();
  });

  it('knex() opens a pool on the app database on first use; close() ends it', async () => {
    const database = extensionDatabase(t.context);
    expect(extensionDatabase(t.context)).toBe(database);
    const knex = database.knex();
    expect(database.knex()).toBe(knex);
    const result = await knex.raw('select 1 as one, current_database() as name');
    expect(result.rows).toEqual([{ one: 1, name: t.testDatabase.name }]);
    expect(await knex('notes').count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await poolConnections()).toBeGreaterThan(0);
    await database.close();
    await expect.poll(poolConnections).toBe(0);
    // A later knex() opens a new pool.
    expect((await database.knex().raw('select 2 as two')).rows).toEqual([{ two: 2 }]);
    await database.close();
  });

  it('services given a transaction handle write inside the write that ran the filter, and roll back with it', async () => {
    const database = extensionDatabase(t.context);
    const { ItemsService } = createExtensionServices(t.context);
    const off = t.context.events.onFilter('notes.items.create', async (payload, meta) => {
      const handle = database.transactionHandle(meta.transaction!);
      await new ItemsService('log', { knex: handle }).createOne({ name: `logged ${String(payload.title)}` });
      // The item written on the handle is visible inside the write.
      const seen = await new ItemsService('log', { knex: handle }).readByQuery({ filter: { name: { _eq: `logged ${String(payload.title)}` } } });
      if (seen.length !== 1) throw new Error('the handle did not see its own write');
      if (payload.title === 'refuse') throw new InvalidPayloadError('Refused by the filter.', { field: 'title' });
      return payload;
    });
    try {
      const admin = await t.login();
      const refused = await t.request.post('/items/notes').set(auth(admin)).send({ title: 'refuse' }).expect(400);
      expect(refused.body.errors[0]).toEqual({ message: 'Refused by the filter.', extensions: { code: 'INVALID_PAYLOAD', field: 'title' } });
      await t.request.post('/items/notes').set(auth(admin)).send({ title: 'keep' }).expect(200);
      // The refused write took the log item down with it; the kept one committed both.
      expect(await names()).toEqual(['logged keep']);
      expect((await t.system.db.selectFrom('notes').select('title').execute()).map((row) => row.title)).toEqual(['keep']);
    } finally {
      off();
    }
  });

  it('a knex the extension made itself means the app database', async () => {
    const database = extensionDatabase(t.context);
    const { ItemsService } = createExtensionServices(t.context);
    const key = await new ItemsService('log', { knex: database.knex() }).createOne({ name: 'plain knex' });
    expect(await new ItemsService('log').readOne(key, { fields: ['name'] })).toEqual({ name: 'plain knex' });
    await database.close();
  });
});

describe('extension context database on the embedded database', () => {
  it('knex() connects to the embedded server this process serves', async () => {
    const embedded = await createEmbeddedApp('tessera-extension-knex-');
    try {
      const database = extensionDatabase(embedded.context);
      const result = await database.knex().raw('select 1 as one');
      expect(result.rows).toEqual([{ one: 1 }]);
      expect((await database.knex()('tessera_roles').select('name')).map((row: { name: string }) => row.name)).toContain('Administrator');
      await database.close();
    } finally {
      await embedded.close();
    }
  });
});
