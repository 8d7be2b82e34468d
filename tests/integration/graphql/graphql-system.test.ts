import { authentication, createDirectus, graphql, readGraphqlSdl, rest, staticToken } from '@directus/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../helpers/listen.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let server: Listening;
let admin: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const READER = { email: 'reader@example.com', password: 'reader-password-1' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }, { field: 'secret', type: 'string' }] }).expect(200);
  await t.request.post('/items/notes').set(auth(admin)).send([{ text: 'one', secret: 's1' }, { text: 'two', secret: 's2' }]).expect(200);
  const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Reader', app_access: false }).expect(200)).body.data.id;
  await t.request.post('/users').set(auth(admin)).send({ ...READER, role }).expect(200);
  await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'notes', action: 'read', fields: ['id', 'text'] }).expect(200);
  server = await listen(t);
});
afterAll(async () => {
  await server?.close();
  await t.close();
});

describe('/graphql/system', () => {
  it('logs in, reads users_me and server_info, refreshes and logs out', async () => {
    const login = await t.request.post('/graphql/system').send({ query: 'mutation ($e: String!, $p: String!) { auth_login(email: $e, password: $p) { access_token refresh_token expires } }', variables: { e: TEST_ADMIN.email, p: TEST_ADMIN.password } });
    expect(login.status).toBe(200);
    const tokens = login.body.data.auth_login;
    // A string of milliseconds, as Directus answers it (issue 31).
    expect(tokens.expires).toMatch(/^\d+$/);
    expect(Number(tokens.expires)).toBeGreaterThan(0);
    const me = await t.request.post('/graphql/system').set(auth(tokens.access_token)).send({ query: '{ users_me { email role { name } } server_info { project } }' });
    expect(me.body.data.users_me).toEqual({ email: TEST_ADMIN.email, role: { name: 'Administrator' } });
    expect(me.body.data.server_info.project).toHaveProperty('project_name');
    const refreshed = await t.request.post('/graphql/system').send({ query: `mutation { auth_refresh(refresh_token: "${tokens.refresh_token}") { access_token refresh_token } }` });
    expect(refreshed.body.data.auth_refresh.access_token).toEqual(expect.any(String));
    const logout = await t.request.post('/graphql/system').send({ query: `mutation { auth_logout(refresh_token: "${refreshed.body.data.auth_refresh.refresh_token}") }` });
    expect(logout.body.data.auth_logout).toBe(true);
    const again = await t.request.post('/graphql/system').send({ query: `mutation { auth_refresh(refresh_token: "${refreshed.body.data.auth_refresh.refresh_token}") { access_token } }` });
    expect(again.status).toBe(200);
    expect(again.body.data.auth_refresh).toBeNull();
    expect(again.body.errors[0].extensions.code).toMatch(/^INVALID_/);
  });

  it('refuses a wrong password with INVALID_CREDENTIALS (200: the request ran, as in Directus)', async () => {
    const response = await t.request.post('/graphql/system').send({ query: `mutation { auth_login(email: "${TEST_ADMIN.email}", password: "nope") { access_token } }` });
    expect(response.status).toBe(200);
    expect(response.body.data.auth_login).toBeNull();
    expect(response.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
  });

  it('gives a role without system permissions no system collections, and admin its users', async () => {
    const reader = await t.login(READER.email, READER.password);
    const sdl = await t.request.get('/server/specs/graphql/system').set(auth(reader)).expect(200);
    expect(sdl.text).not.toContain('type roles');
    const adminSdl = await t.request.get('/server/specs/graphql/system').set(auth(admin)).expect(200);
    expect(adminSdl.text).toContain('users_me: users');
  });
});

describe('permissions changes and the SDK', () => {
  it('rebuilds a role schema when its permissions change', async () => {
    const reader = await t.login(READER.email, READER.password);
    expect((await t.request.post('/graphql').set(auth(reader)).send({ query: '{ notes { secret } }' })).status).toBe(400);
    const permission = (await t.request.get('/permissions?filter[collection][_eq]=notes').set(auth(admin)).expect(200)).body.data[0];
    await t.request.patch(`/permissions/${permission.id}`).set(auth(admin)).send({ fields: ['id', 'text', 'secret'], permissions: { text: { _eq: 'two' } } }).expect(200);
    const response = await t.request.post('/graphql').set(auth(reader)).send({ query: '{ notes { text secret } }' });
    expect(response.status).toBe(200);
    expect(response.body.data.notes).toEqual([{ text: 'two', secret: 's2' }]);
  });

  it("answers @directus/sdk's graphql composable and readGraphqlSdl", async () => {
    const client = createDirectus(server.url).with(staticToken(admin)).with(graphql()).with(rest());
    const items = await client.query<{ notes: { text: string }[] }>('query ($s: [String]) { notes(sort: $s) { text } }', { s: ['id'] });
    expect(items.notes).toEqual([{ text: 'one' }, { text: 'two' }]);
    const system = await client.query<{ users_me: { email: string } }>('{ users_me { email } }', {}, 'system');
    expect(system.users_me.email).toBe(TEST_ADMIN.email);
    const sdl = await client.request(readGraphqlSdl());
    expect(sdl).toContain('type notes');
    const session = createDirectus(server.url).with(authentication('json', { autoRefresh: false })).with(graphql());
    await session.login({ email: READER.email, password: READER.password });
    await expect(session.query('{ notes { id } }')).resolves.toHaveProperty('notes');
  });
});

describe('GRAPHQL_INTROSPECTION=false', () => {
  it('refuses introspection with a 400 and still runs queries', async () => {
    const closed = await createTestApp({ GRAPHQL_INTROSPECTION: 'false' });
    try {
      const token = await closed.login();
      const introspection = await closed.request.post('/graphql').set(auth(token)).send({ query: '{ __schema { types { name } } }' });
      expect(introspection.status).toBe(400);
      expect(introspection.body.errors[0].extensions.errors[0].message).toMatch(/introspection/i);
      const query = await closed.request.post('/graphql/system').set(auth(token)).send({ query: '{ users_me { email } }' });
      expect(query.body.data.users_me.email).toBe(TEST_ADMIN.email);
    } finally {
      await closed.close();
    }
  });
});
