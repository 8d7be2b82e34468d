import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from '../flows/flow-fixture.ts';

/**
 * Real extension folders (tests/integration/extensions/fixtures) written the way Directus's documentation
 * shows, loaded into a real server: a hook, an endpoint, an operation, a bundle, an admin-only extension, one
 * that throws while loading, one for another host version and one without a manifest.
 */
const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));

let t: TestApp;
let admin: string;
let editor: string;
let editorId: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

const listed = async () => (await t.request.get('/extensions').set(auth(admin)).expect(200)).body.data as Array<Record<string, any>>;
const byName = async (name: string) => (await listed()).find((extension) => extension.schema?.name === name)!;
const log = async () => (await sql<{ event: string; collection: string | null; item: string | null; who: string | null }>`select event, collection, item, who from hook_log order by id`.execute(t.system.db)).rows;

beforeAll(async () => {
  t = await createTestApp({ EXTENSIONS_PATH: FIXTURES });
  admin = await t.login();
  await sql`create table hook_log (id serial primary key, event text, collection text, item text, who text)`.execute(t.system.db);
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'body', type: 'text' }, { field: 'secret', type: 'string' }] }).expect(200);
  const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id as string;
  for (const action of ['create', 'read', 'update']) {
    await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'articles', action, fields: ['id', 'title', 'body'] }).expect(200);
  }
  editorId = (await t.request.post('/users').set(auth(admin)).send({ email: 'editor@example.com', password: 'editor-password-1', role, status: 'active' }).expect(200)).body.data.id;
  editor = await t.login('editor@example.com', 'editor-password-1');
});

afterAll(async () => {
  await t?.close();
});

describe('GET /extensions', () => {
  it("lists every extension in Directus's shape with how it loaded", async () => {
    const extensions = await listed();
    const summary = Object.fromEntries(extensions.map((extension) => [extension.meta.folder, [extension.schema?.type ?? null, extension.status, extension.meta.enabled]]));
    expect(summary).toEqual({
      'app-badge': ['display', 'loaded', true],
      'app-rating': ['interface', 'loaded', true],
      'app-reading-list': ['module', 'loaded', true],
      'broken-hook': ['hook', 'error', true],
      'bundle-kit': ['bundle', 'loaded', true],
      'kit-api': ['endpoint', 'loaded', true],
      'kit-hook': ['hook', 'loaded', true],
      'kit-input': ['interface', 'loaded', true],
      'endpoint-greet': ['endpoint', 'loaded', true],
      'future-host': ['hook', 'incompatible', true],
      'hook-audit': ['hook', 'loaded', true],
      'no-manifest': [null, 'error', true],
      'operation-shout': ['operation', 'loaded', true],
    });
    const hook = await byName('hook-audit');
    expect(hook).toMatchObject({ bundle: null, schema: { type: 'hook', name: 'hook-audit', version: '1.2.0', local: true, host: '^10.0.0' }, meta: { enabled: true, folder: 'hook-audit', source: 'local', bundle: null }, error: null });
    const bundle = await byName('bundle-kit');
    expect((await byName('kit-api')).bundle).toBe(bundle.id);
    expect((await byName('broken-hook')).error).toBe('broken on purpose');
    expect((await byName('future-host')).error).toMatch(/needs Directus \^99\.0\.0/);
    expect(extensions.find((extension) => extension.meta.folder === 'no-manifest')!.error).toMatch(/no "directus:extension" or "tessera:extension"/);
    const rows = await t.system.db.selectFrom('tessera_extensions').select(['id', 'folder', 'source', 'bundle', 'enabled']).execute();
    expect(rows).toHaveLength(extensions.length);
  });

  it('is for administrators only', async () => {
    await t.request.get('/extensions').set(auth(editor)).expect(403);
    await t.request.get('/extensions').expect(403);
    const hook = await byName('hook-audit');
    await t.request.patch(`/extensions/${hook.id}`).set(auth(editor)).send({ meta: { enabled: false } }).expect(403);
    await t.request.patch(`/extensions/${hook.id}`).set(auth(admin)).send({ meta: { enabled: 'no' } }).expect(400);
  });
});

describe("admin extensions' sources", () => {
  it('lists the loaded admin extensions for users of the admin, with the URL of their module', async () => {
    const listed = (await t.request.get("/extensions/app").set(auth(editor)).expect(200)).body.data as Array<{ id: string; name: string; type: string; entry: string }>;
    expect(listed.map((extension) => [extension.name, extension.type]).sort()).toEqual([
      ['app-badge', 'display'],
      ['app-rating', 'interface'],
      ['app-reading-list', 'module'],
      ['bundle-kit', 'bundle'],
    ]);
    await t.request.get('/extensions/app').expect(403);
    const rating = listed.find((extension) => extension.name === 'app-rating')!;
    expect(rating.entry).toBe(`/extensions/app/${rating.id}/index.js`);
    const entry = await t.request.get(rating.entry).set(auth(editor)).expect(200);
    expect(entry.headers['content-type']).toMatch(/^text\/javascript/);
    expect(entry.text).toContain("id: 'rating'");
    // Relative imports of the module resolve beside it; a validator saves sending it again.
    await t.request.get(`/extensions/app/${rating.id}/stars.js`).set(auth(editor)).expect(200);
    await t.request.get(rating.entry).set(auth(editor)).set('If-None-Match', entry.headers.etag!).expect(304);
  });

  it('serves nothing outside the folder of the admin entry', async () => {
    const rating = ((await t.request.get('/extensions/app').set(auth(editor)).expect(200)).body.data as Array<{ id: string; name: string; entry: string }>).find((extension) => extension.name === 'app-rating')!;
    for (const path of ['..%2Fpackage.json', '../package.json', '%2E%2E/%2E%2E/hook-audit/dist/index.js', '.hidden.js', 'missing.js', 'index.ts']) {
      await t.request.get(`/extensions/app/${rating.id}/${path}`).set(auth(editor)).expect(404);
    }
    const hook = await byName('hook-audit');
    await t.request.get(`/extensions/app/${hook.id}/index.js`).set(auth(editor)).expect(404);
  });
});

describe('a hook', () => {
  it('changes a create payload in a filter, inside the write, through REST and GraphQL', async () => {
    const rest = await t.request.post('/items/articles').set(auth(editor)).send({ title: 'Hello' }).expect(200);
    expect(rest.body.data.title).toBe('Hello [articles.items.create|articles|user]');
    expect(rest.body.data.body).toBe('from the bundle');
    const graphql = await t.request
      .post('/graphql')
      .set(auth(admin))
      .send({ query: 'mutation { create_articles_item(data: { title: "Graph" }) { id title } }' })
      .expect(200);
    expect(graphql.body.data.create_articles_item.title).toBe('Graph [articles.items.create|articles|admin]');
  });

  it('refuses a write with the status and code of the Directus error it throws, and nothing is written', async () => {
    const before = await t.system.db.selectFrom('articles').select('id').execute();
    const refused = await t.request.post('/items/articles').set(auth(editor)).send([{ title: 'fine' }, { title: 'forbidden' }]).expect(422);
    expect(refused.body.errors[0]).toMatchObject({ message: 'This title is not allowed.', extensions: { code: 'TITLE_REFUSED' } });
    expect(await t.system.db.selectFrom('articles').select('id').execute()).toHaveLength(before.length);
  });

  it('sees Directus names: items.* for user collections only, users.create for tessera_users', async () => {
    const user = await t.request.post('/users').set(auth(admin)).send({ email: 'hooked@example.com', password: 'hooked-password-1' }).expect(200);
    expect(user.body.data.title).toBe('hooked user');
    const updated = await t.request.patch(`/items/articles/${(await t.request.post('/items/articles').set(auth(admin)).send({ title: 'x' })).body.data.id}`).set(auth(admin)).send({ title: 'shout' }).expect(200);
    expect(updated.body.data.title).toBe('SHOUT');
  });

  it('runs actions after the commit with Directus meta and the caller', async () => {
    const created = await t.request.post('/items/articles').set(auth(editor)).send({ title: 'acted' }).expect(200);
    const key = String(created.body.data.id);
    await expect.poll(async () => (await log()).find((row) => row.event === 'items.create' && row.item === key)).toEqual({ event: 'items.create', collection: 'articles', item: key, who: editorId });
    // A user created through /users is a system collection: items.create must not fire for it.
    expect((await log()).filter((row) => row.event === 'items.create' && row.collection !== 'articles')).toEqual([]);
    await t.request.delete(`/items/articles/${key}`).set(auth(admin)).expect(204);
    await expect.poll(async () => (await log()).find((row) => row.event === 'articles.items.delete')?.item).toBe(key);
  });

  it('runs its schedule', async () => {
    await expect.poll(async () => (await log()).some((row) => row.event === 'schedule')).toBe(true);
  });

  it('adds routes in routes.custom.before and embeds HTML in the admin page', async () => {
    expect((await t.request.get('/hook-audit-ping').set(auth(admin)).expect(200)).body).toEqual({ pong: true, admin: true });
    expect(t.context.extensions.embeds().head).toContain('<meta name="hook-audit" content="embedded">');
  });
});

describe('an endpoint', () => {
  it("answers under its id with an Express router: accountability, query, body, status, headers", async () => {
    expect((await t.request.get('/greet').expect(200)).text).toBe('Hello, World!');
    expect((await t.request.get('/greet/me?filter[title][_eq]=x').set(auth(editor)).expect(200)).body).toEqual({ user: editorId, admin: false, query: { filter: { title: { _eq: 'x' } } } });
    const echoed = await t.request.post('/greet/echo').send({ a: [1, 2] }).expect(201);
    expect(echoed.headers['x-greet']).toBe('yes');
    expect(echoed.body).toEqual({ received: { a: [1, 2] } });
    expect((await t.request.get('/kit').expect(200)).body).toEqual({ kit: true });
  });

  it("answers errors in Tessera's error shape with their status, and a crash as a 500 that hides its message", async () => {
    const forbidden = await t.request.get('/greet/forbidden').expect(403);
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const crash = await t.request.get('/greet/crash').expect(500);
    expect(JSON.stringify(crash.body)).not.toContain('secret detail');
    await t.request.get('/greet/nothing-here').expect(404);
    await t.request.get('/server/ping').expect(200);
  });

  it("reads through the services facade with the caller's permissions", async () => {
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'visible', secret: 's3cret' }).expect(200);
    const asEditor = (await t.request.get('/greet/articles').set(auth(editor)).expect(200)).body.data as Array<Record<string, unknown>>;
    expect(asEditor.some((article) => String(article.title).startsWith('visible'))).toBe(true);
    expect(asEditor.every((article) => !('secret' in article))).toBe(true);
    await t.request.get('/greet/articles').expect(403);
  });
});

describe('an operation', () => {
  it('is a flow operation type: options rendered with the flow templating, the caller passed on', async () => {
    const { id } = await createFlow(t, admin, { name: 'shout', trigger: 'webhook', options: { method: 'POST' } }, [{ key: 'loud', type: 'shout', options: { text: '{{ $trigger.body.word }}', times: 3 } }]);
    const run = await t.request.post(`/flows/trigger/${id}`).send({ word: 'hey' }).expect(200);
    expect(run.body).toEqual({ text: 'HEY!!!', trigger: { word: 'hey' }, user: null });
  });

  it('cannot be used once its extension is switched off', async () => {
    const shout = await byName('operation-shout');
    await t.request.patch(`/extensions/${shout.id}`).set(auth(admin)).send({ meta: { enabled: false } }).expect(200);
    const refused = await t.request.post('/operations').set(auth(admin)).send({ key: 'x', type: 'shout', options: {}, position_x: 1, position_y: 1 }).expect(400);
    expect(refused.body.errors[0].extensions.field).toBe('type');
    await t.request.patch(`/extensions/${shout.id}`).set(auth(admin)).send({ meta: { enabled: true } }).expect(200);
  });
});

describe('switching an extension off and on', () => {
  it('takes its filters, actions and routes away at once, and back', async () => {
    const hook = await byName('hook-audit');
    const greet = await byName('endpoint-greet');
    const off = await t.request.patch(`/extensions/${hook.id}`).set(auth(admin)).send({ meta: { enabled: false } }).expect(200);
    expect(off.body.data).toMatchObject({ id: hook.id, meta: { enabled: false }, status: 'disabled' });
    await t.request.patch(`/extensions/${greet.id}`).set(auth(admin)).send({ meta: { enabled: false } }).expect(200);
    expect((await t.request.post('/items/articles').set(auth(admin)).send({ title: 'plain' }).expect(200)).body.data.title).toBe('plain');
    await t.request.get('/greet').expect(404);
    await t.request.get('/hook-audit-ping').expect(404);

    await t.request.patch(`/extensions/${hook.id}`).set(auth(admin)).send({ meta: { enabled: true } }).expect(200);
    await t.request.patch(`/extensions/${greet.id}`).set(auth(admin)).send({ meta: { enabled: true } }).expect(200);
    expect((await t.request.post('/items/articles').set(auth(admin)).send({ title: 'again' }).expect(200)).body.data.title).toBe('again [articles.items.create|articles|admin]');
    await t.request.get('/greet').expect(200);
  });

  it('switches one entry of a bundle without the others', async () => {
    const kitHook = await byName('kit-hook');
    await t.request.patch(`/extensions/${kitHook.id}`).set(auth(admin)).send({ meta: { enabled: false } }).expect(200);
    expect((await t.request.post('/items/articles').set(auth(admin)).send({ title: 'no kit' }).expect(200)).body.data.body).toBeNull();
    await t.request.get('/kit').expect(200);
    await t.request.patch(`/extensions/${kitHook.id}`).set(auth(admin)).send({ meta: { enabled: true } }).expect(200);
  });
});
