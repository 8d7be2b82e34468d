import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

type Call = { method: 'get' | 'post' | 'patch' | 'delete'; path: (collection: string) => string; body?: unknown };

/** Routes that take a collection name in the path. */
const ROUTES: Call[] = [
  { method: 'post', path: (c) => `/utils/sort/${c}`, body: { item: 1, to: 2 } },
  { method: 'post', path: (c) => `/utils/sort/${c}`, body: { item: 'x', to: 'y' } },
  { method: 'post', path: (c) => `/utils/export/${c}`, body: { format: 'json', query: {} } },
  { method: 'post', path: (c) => `/utils/import/${c}`, body: [] },
  { method: 'get', path: (c) => `/items/${c}` },
  { method: 'get', path: (c) => `/items/${c}/1` },
  { method: 'patch', path: (c) => `/items/${c}/1`, body: { title: 'x' } },
  { method: 'delete', path: (c) => `/items/${c}/1` },
  { method: 'get', path: (c) => `/collections/${c}` },
  { method: 'patch', path: (c) => `/collections/${c}`, body: { meta: { note: 'x' } } },
  { method: 'delete', path: (c) => `/collections/${c}` },
  { method: 'get', path: (c) => `/fields/${c}` },
  { method: 'get', path: (c) => `/fields/${c}/title` },
  { method: 'post', path: (c) => `/fields/${c}`, body: { field: 'extra', type: 'string' } },
  { method: 'patch', path: (c) => `/fields/${c}/title`, body: { meta: { note: 'x' } } },
  { method: 'delete', path: (c) => `/fields/${c}/title` },
  { method: 'get', path: (c) => `/relations/${c}` },
  { method: 'get', path: (c) => `/relations/${c}/title` },
];

describe('routes with a collection in the path answer the same for existing and missing collections', () => {
  let t: TestApp;
  let admin: { Authorization: string };
  let user: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = { Authorization: `Bearer ${await t.login()}` };
    const fields = [{ field: 'title', type: 'string' }, { field: 'position', type: 'integer' }];
    await t.request.post('/collections').set(admin).send({ collection: 'slides', fields }).expect(200);
    await t.request.patch('/collections/slides').set(admin).send({ meta: { sort_field: 'position' } }).expect(200);
    await t.request.post('/collections').set(admin).send({ collection: 'plain', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/items/slides').set(admin).send([{ title: 'a' }, { title: 'b' }]).expect(200);
    await t.request.post('/items/plain').set(admin).send([{ title: 'a' }, { title: 'b' }]).expect(200);
    // A signed-in user whose role may read slides but update nothing.
    const role = await t.request.post('/roles').set(admin).send({ name: 'Reader', app_access: true }).expect(200);
    await t.request.post('/permissions').set(admin).send({ role: role.body.data.id, collection: 'slides', action: 'read', fields: ['*'] }).expect(200);
    await t.request.post('/users').set(admin).send({ email: 'reader@example.com', password: 'reader-pass-1', role: role.body.data.id, status: 'active' }).expect(200);
    user = { Authorization: `Bearer ${await t.login('reader@example.com', 'reader-pass-1')}` };
  });
  afterAll(() => t.close());

  async function answer(call: Call, collection: string, auth: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const request = t.request[call.method](call.path(collection)).set(auth);
    const response = call.body === undefined ? await request : await request.send(call.body as object);
    return { status: response.status, body: response.body };
  }

  it('POST /utils/sort/<collection> is 403 FORBIDDEN with one body for a caller who may not update it', async () => {
    for (const auth of [{}, user]) {
      const missing = await answer(ROUTES[0]!, 'missing_collection', auth);
      expect(missing.status).toBe(403);
      expect((missing.body as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('FORBIDDEN');
      for (const existing of ['slides', 'plain', 'tessera_users']) {
        const response = await answer(ROUTES[0]!, existing, auth);
        expect(response, `${existing} as ${JSON.stringify(auth).slice(0, 20)}`).toEqual(missing);
      }
    }
    // An administrator still learns that a collection has no sort field (400), and sorts the others.
    expect((await answer(ROUTES[0]!, 'plain', admin)).status).toBe(400);
  });

  it('every route with a :collection gives an unauthorised caller the same status and body either way', async () => {
    const differences: string[] = [];
    for (const auth of [{}, user]) {
      for (const call of ROUTES) {
        const missing = await answer(call, 'missing_collection', auth);
        for (const existing of ['slides', 'plain']) {
          const got = await answer(call, existing, auth);
          // The user may read slides: reads (and exports) of it may differ from a missing collection's.
          if (existing === 'slides' && auth === user && (call.method === 'get' || call.path(existing).startsWith('/utils/export/'))) continue;
          if (got.status !== missing.status || JSON.stringify(got.body) !== JSON.stringify(missing.body)) {
            differences.push(`${call.method.toUpperCase()} ${call.path(existing)} (${auth === user ? 'user' : 'public'}): ${got.status} ${JSON.stringify(got.body)} vs missing ${missing.status} ${JSON.stringify(missing.body)}`);
          }
        }
      }
    }
    expect(differences).toEqual([]);
  });

  it('POST /utils/revert/<revision> answers the same for an existing revision and a missing one', async () => {
    const revisions = await t.request.get('/revisions?fields=id&limit=1').set(admin).expect(200);
    const existing = revisions.body.data[0].id as number;
    for (const auth of [{}, user]) {
      const missing = await t.request.post('/utils/revert/999999').set(auth);
      expect(missing.status).toBe(403);
      for (const path of [`/utils/revert/${existing}`, '/utils/revert/abc']) {
        const response = await t.request.post(path).set(auth);
        expect({ status: response.status, body: response.body }).toEqual({ status: missing.status, body: missing.body });
      }
    }
  });
});
