import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecondInstance, createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** What the hook below awaits in its payload-only filter: the test holds it there while it checks the pool. */
interface Gate {
  reached(): void;
  release: Promise<void>;
}
const globals = globalThis as { __deferredFilterGate?: Gate };

// A hook as Directus's documentation writes them: one filter joins the write through its context's
// database (an ItemsService given `knex: context.database`), the other only changes the payload.
const HOOK = `import { createError } from '@directus/errors';
const Refused = createError('NOTE_REFUSED', 'This note is refused.', 422);
export default ({ filter }, { services }) => {
  filter('notes.items.create', async (payload, meta, context) => {
    const log = new services.ItemsService('log', { knex: context.database, schema: context.schema });
    await log.createOne({ name: 'logged ' + payload.title });
    if (payload.title === 'refuse') throw new Refused();
    return payload;
  });
  filter('quick.items.create', async (payload) => {
    const gate = globalThis.__deferredFilterGate;
    if (gate) { gate.reached(); await gate.release; }
    return { ...payload, views: 1 };
  });
};
`;

/**
 * Extension filters defer the write's transaction (docs/extensions.md, "Hooks"): a payload-only filter runs
 * on no connection and the create stays one statement; a filter that joins the write begins the transaction,
 * and the write commits or rolls back with what the filter did.
 */
describe('deferred filter transactions', () => {
  let t: TestApp;
  let folder: string;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const names = async () => (await t.system.db.selectFrom('log').select('name').orderBy('name').execute()).map((row) => row.name as string);

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'tessera-deferred-filter-'));
    await mkdir(path.join(folder, 'deferring-hook'));
    await writeFile(path.join(folder, 'deferring-hook/package.json'), JSON.stringify({ name: 'deferring-hook', version: '1.0.0', type: 'module', 'directus:extension': { type: 'hook', path: 'index.js', host: '^10.0.0' } }));
    await writeFile(path.join(folder, 'deferring-hook/index.js'), HOOK);
    t = await createTestApp({ EXTENSIONS_PATH: folder });
    admin = await t.login();
    for (const [collection, field, type] of [['notes', 'title', 'string'], ['log', 'name', 'string'], ['quick', 'views', 'integer']] as const) {
      await t.request.post('/collections').set(auth()).send({ collection, fields: [{ field, type }] }).expect(200);
    }
  });
  afterAll(async () => {
    delete globals.__deferredFilterGate;
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('a filter that joins the write through context.database commits with it, or rolls back with it when the write is refused', async () => {
    const refused = await t.request.post('/items/notes').set(auth()).send({ title: 'refuse' }).expect(422);
    expect(refused.body.errors[0].extensions.code).toBe('NOTE_REFUSED');
    await t.request.post('/items/notes').set(auth()).send({ title: 'keep' }).expect(200);
    expect(await names()).toEqual(['logged keep']);
    expect((await t.system.db.selectFrom('notes').select('title').execute()).map((row) => row.title)).toEqual(['keep']);
  });

  it('a payload-only filter holds no connection while it runs', async () => {
    // One connection: if the create had begun a transaction before its filter, the read below would wait for it.
    const instance = await createSecondInstance(t, { EXTENSIONS_PATH: folder, DB_POOL_MAX: '1' });
    try {
      let reached!: () => void;
      let release!: () => void;
      const atGate = new Promise<void>((resolve) => (reached = resolve));
      globals.__deferredFilterGate = { reached, release: new Promise<void>((resolve) => (release = resolve)) };
      const create = instance.request.post('/items/quick').set(auth()).send({ views: 0 }).then((response) => response);
      await atGate;
      const read = await instance.request.get('/items/quick').set(auth()).query({ 'aggregate[count]': '*' });
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual([{ count: 0 }]);
      release();
      const created = await create;
      expect(created.status).toBe(200);
      expect(created.body.data.views).toBe(1);
    } finally {
      delete globals.__deferredFilterGate;
      await instance.close();
    }
  });
});
