import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverExtensions } from '../../../server/extension-packages/discover.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Extensions published on npm, unmodified, installed as packages of a project: directus-extension-sync
 * (an endpoint whose handler creates its own table through the `database` knex handle, guards its routes with
 * Express middleware on `req.accountability` and answers errors through its own error middleware).
 */
const REPO_MODULES = fileURLToPath(new URL('../../../node_modules', import.meta.url));

let project: string;
let t: TestApp;
let admin: string;
let editor: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const SYNC = '/directus-extension-sync';

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'tessera-project-'));
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'a-project', private: true, dependencies: { 'directus-extension-sync': '3.0.6', ms: '2.1.3' } }));
  await mkdir(path.join(project, 'node_modules'));
  for (const name of ['directus-extension-sync', 'ms']) await symlink(path.join(REPO_MODULES, name), path.join(project, 'node_modules', name));
  t = await createTestApp({ EXTENSIONS_PATH: './no-local-extensions' }, { cwd: project });
  admin = await t.login();
  const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id as string;
  await t.request.post('/users').set(auth(admin)).send({ email: 'editor@example.com', password: 'editor-password-1', role, status: 'active' }).expect(200);
  editor = await t.login('editor@example.com', 'editor-password-1');
});

afterAll(async () => {
  await t?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

describe('extension packages of a project', () => {
  it('are found among the dependencies by name, and nothing else is', async () => {
    const found = await discoverExtensions(path.join(project, 'none'), project);
    expect(found.map((extension) => [extension.folder, extension.source, extension.manifest?.type])).toEqual([['directus-extension-sync', 'module', 'endpoint']]);
    const listed = (await t.request.get('/extensions').set(auth(admin)).expect(200)).body.data;
    expect(listed).toEqual([expect.objectContaining({ schema: expect.objectContaining({ name: 'directus-extension-sync', type: 'endpoint', local: false, version: '3.0.6' }), meta: expect.objectContaining({ source: 'module', enabled: true }), status: 'loaded' })]);
  });
});

describe('directus-extension-sync 3.0.6, unmodified', () => {
  it('created its table through the knex handle when it loaded', async () => {
    const table = await t.system.db.selectFrom('information_schema.tables' as never).select('table_name' as never).where('table_name' as never, '=', 'directus_sync_id_map' as never).execute();
    expect(table).toHaveLength(1);
  });

  it('maps ids for an administrator through its routes', async () => {
    const added = await t.request.post(`${SYNC}/table/articles`).set(auth(admin)).send({ local_id: '7' }).expect(200);
    const syncId = added.body.sync_id as string;
    expect(syncId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await t.request.get(`${SYNC}/table/articles/local_id/7`).set(auth(admin)).expect(200)).body).toMatchObject({ table: 'articles', local_id: '7', sync_id: syncId });
    expect((await t.request.get(`${SYNC}/table/articles/sync_id/${syncId}`).set(auth(admin)).expect(200)).body).toMatchObject({ local_id: '7' });
    expect((await t.request.get(`${SYNC}/table/articles`).set(auth(admin)).expect(200)).body).toHaveLength(1);
    await t.request.post(`${SYNC}/table/articles`).set(auth(admin)).send({ local_id: '7' }).expect(409);
    await t.request.delete(`${SYNC}/table/articles/local_id/7`).set(auth(admin)).expect(204);
    await t.request.get(`${SYNC}/table/articles/local_id/7`).set(auth(admin)).expect(404);
  });

  it('refuses callers its middleware refuses: 401 without a user, 403 for a non-administrator', async () => {
    await t.request.get(`${SYNC}/table/articles`).expect(401);
    await t.request.get(`${SYNC}/table/articles`).set(auth(editor)).expect(403);
  });
});
