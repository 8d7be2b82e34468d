import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * `GET /utils/autocomplete/:collection/:field` (the `input-autocomplete-api` interface, docs/admin-screens.md):
 * the server calls the field's `url` option through the outbound guard and reads the suggestions out of the
 * answer by the field's paths; only signed-in callers who may write the field get them.
 */
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const CITIES = [
  { name: 'São Paulo', code: 'SAO' },
  { name: 'Salvador', code: 'SSA' },
  { name: 'Lisboa', code: 'LIS' },
];

let remote: Server;
let remoteUrl: string;
const hits: string[] = [];

/** A test app with a `places` collection whose `city` field suggests cities from the remote server. */
async function placesApp(env: Record<string, string>): Promise<{ t: TestApp; admin: string }> {
  const t = await createTestApp(env);
  const admin = await t.login();
  const city = { interface: 'input-autocomplete-api', options: { url: `${remoteUrl}/search?q={{ value }}`, resultsPath: 'result.predictions', textPath: 'name', valuePath: 'code' } };
  await t.request
    .post('/collections')
    .set(auth(admin))
    .send({
      collection: 'places',
      fields: [
        { field: 'city', type: 'string', meta: city },
        { field: 'broken', type: 'string', meta: { ...city, options: { ...city.options, url: `${remoteUrl}/fails?q={{value}}` } } },
        { field: 'metadata', type: 'string', meta: { ...city, options: { url: 'http://169.254.169.254/latest/meta-data/{{value}}' } } },
        { field: 'no_url', type: 'string', meta: { interface: 'input-autocomplete-api' } },
        { field: 'plain', type: 'string' },
      ],
    })
    .expect(200);
  return { t, admin };
}

beforeAll(async () => {
  remote = createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://remote');
    if (url.pathname === '/search') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const predictions = CITIES.filter((city) => city.name.toLowerCase().startsWith(q));
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ result: { predictions } }));
    }
    res.writeHead(500).end('down');
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});
afterAll(async () => {
  remote.closeAllConnections();
  await new Promise((resolve) => remote.close(resolve));
});

describe('without OUTBOUND_ALLOWED_HOSTS', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => ({ t, admin } = await placesApp({})));
  afterAll(() => t.close());

  it('refuses a loopback and a metadata address with 403 naming url, without calling them', async () => {
    hits.length = 0;
    for (const field of ['city', 'metadata']) {
      const response = await t.request.get(`/utils/autocomplete/places/${field}?value=sa`).set(auth(admin));
      expect([field, response.status, response.body.errors[0].extensions]).toEqual([field, 403, { code: 'FORBIDDEN', field: 'url' }]);
      expect(response.body.errors[0].message).toMatch(/allow it with OUTBOUND_ALLOWED_HOSTS/);
    }
    expect(hits).toEqual([]);
  });
});

describe('with 127.0.0.1 in OUTBOUND_ALLOWED_HOSTS', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let reader: string;
  let otherFields: string;
  beforeAll(async () => {
    ({ t, admin } = await placesApp({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }));
    const user = async (name: string, permissions: Array<{ action: string; fields: string }>) => {
      const role = (await t.request.post('/roles').set(auth(admin)).send({ name, app_access: true }).expect(200)).body.data.id as string;
      for (const permission of permissions) await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'places', ...permission }).expect(200);
      await t.request.post('/users').set(auth(admin)).send({ email: `${name}@example.com`, password: 'autocomplete-password-1', role, status: 'active' }).expect(200);
      return t.login(`${name}@example.com`, 'autocomplete-password-1');
    };
    editor = await user('editor', [{ action: 'update', fields: 'city' }]);
    reader = await user('reader', [{ action: 'read', fields: '*' }]);
    otherFields = await user('other', [{ action: 'create', fields: 'plain' }]);
  });
  afterAll(() => t.close());

  it('answers the suggestions read by the field paths, the typed value URL-encoded into the url option', async () => {
    hits.length = 0;
    const response = await t.request.get(`/utils/autocomplete/places/city?value=${encodeURIComponent('São')}`).set(auth(admin)).expect(200);
    expect(response.body.data).toEqual([{ text: 'São Paulo', value: 'SAO' }]);
    expect(hits).toEqual([`/search?q=${encodeURIComponent('São')}`]);
    const all = await t.request.get('/utils/autocomplete/places/city?value=s').set(auth(admin)).expect(200);
    expect(all.body.data.map((entry: { value: string }) => entry.value)).toEqual(['SAO', 'SSA']);
  });

  it('gives them to a role that may write the field, and refuses readers, other fields and the public', async () => {
    expect((await t.request.get('/utils/autocomplete/places/city?value=lis').set(auth(editor)).expect(200)).body.data).toEqual([{ text: 'Lisboa', value: 'LIS' }]);
    for (const token of [reader, otherFields]) {
      const response = await t.request.get('/utils/autocomplete/places/city?value=lis').set(auth(token));
      expect([response.status, response.body.errors[0].extensions.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await t.request.get('/utils/autocomplete/places/city?value=lis')).status).toBe(403);
  });

  it('answers an unknown collection or field like a forbidden one, and names what is wrong with a field that is not set up', async () => {
    for (const path of ['/utils/autocomplete/nowhere/city', '/utils/autocomplete/places/nothing']) expect((await t.request.get(path).set(auth(admin))).status).toBe(403);
    const plain = await t.request.get('/utils/autocomplete/places/plain?value=a').set(auth(admin));
    expect([plain.status, plain.body.errors[0].extensions]).toEqual([400, { code: 'INVALID_PAYLOAD', field: 'field' }]);
    const noUrl = await t.request.get('/utils/autocomplete/places/no_url?value=a').set(auth(admin));
    expect([noUrl.status, noUrl.body.errors[0].extensions]).toEqual([400, { code: 'INVALID_PAYLOAD', field: 'url' }]);
    const long = await t.request.get(`/utils/autocomplete/places/city?value=${'a'.repeat(501)}`).set(auth(admin));
    expect([long.status, long.body.errors[0].extensions.field]).toEqual([400, 'value']);
  });

  it('answers 503 when the remote fails', async () => {
    const response = await t.request.get('/utils/autocomplete/places/broken?value=a').set(auth(admin));
    expect([response.status, response.body.errors[0].extensions.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  });
});
