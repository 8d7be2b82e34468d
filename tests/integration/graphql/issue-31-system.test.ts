import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageVersion } from '../../../server/version.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

/** Issue 31 item 2: /graphql/system's auth modes (cookies as REST sets them), server_health, and the schema queries. */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const system = (query: string, cookies?: string[]) => {
  const request = t.request.post('/graphql/system').send({ query });
  return cookies ? request.set('Cookie', cookies) : request;
};
const login = (mode: string) => `mutation { auth_login(email: "${TEST_ADMIN.email}", password: "${TEST_ADMIN.password}", mode: ${mode}) { access_token refresh_token expires } }`;
const cookieNamed = (response: { headers: Record<string, unknown> }, name: string) => ([] as string[]).concat((response.headers['set-cookie'] as string[] | undefined) ?? []).filter((cookie) => cookie.startsWith(`${name}=`) || cookie.startsWith(`${name}.sig=`));

describe('auth_login and auth_refresh modes', () => {
  it('cookie mode: the refresh token goes into the cookie, the access token and expires (a string) into the answer', async () => {
    const signedIn = await system(login('cookie')).expect(200);
    expect(signedIn.body.data.auth_login).toEqual({ access_token: expect.any(String), refresh_token: null, expires: expect.stringMatching(/^\d+$/) });
    const cookies = cookieNamed(signedIn, 'tessera_refresh_token');
    expect(cookies.length).toBeGreaterThan(0);
    const refreshed = await system('mutation { auth_refresh(mode: cookie) { access_token refresh_token expires } }', cookies).expect(200);
    expect(refreshed.body.data.auth_refresh).toEqual({ access_token: expect.any(String), refresh_token: null, expires: expect.stringMatching(/^\d+$/) });
    expect(cookieNamed(refreshed, 'tessera_refresh_token').length).toBeGreaterThan(0);
    const me = await t.request.post('/graphql/system').set('Authorization', `Bearer ${refreshed.body.data.auth_refresh.access_token}`).send({ query: '{ users_me { email } }' }).expect(200);
    expect(me.body.data.users_me.email).toBe(TEST_ADMIN.email);
  });

  it('session mode: the session cookie signs later requests in; no token in the answer', async () => {
    const signedIn = await system(login('session')).expect(200);
    expect(signedIn.body.data.auth_login).toEqual({ access_token: null, refresh_token: null, expires: expect.stringMatching(/^\d+$/) });
    const cookies = cookieNamed(signedIn, 'tessera_session_token');
    const me = await system('{ users_me { email } }', cookies).expect(200);
    expect(me.body.data.users_me.email).toBe(TEST_ADMIN.email);
    const refreshed = await system('mutation { auth_refresh(mode: session) { access_token expires } }', cookies).expect(200);
    expect(refreshed.body.data.auth_refresh).toEqual({ access_token: null, expires: expect.stringMatching(/^\d+$/) });
    await system('mutation { auth_logout(mode: session) }', cookies).expect(200);
    const after = await system('mutation { auth_refresh(mode: session) { expires } }', cookies).expect(200);
    expect(after.body.data.auth_refresh).toBeNull();
    expect(after.body.errors[0].extensions.code).toMatch(/^INVALID_/);
  });

  it('refresh without a token in json mode fails with INVALID_PAYLOAD naming refresh_token', async () => {
    const response = await system('mutation { auth_refresh { access_token } }').expect(200);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'refresh_token' });
  });
});

describe('server_health', () => {
  it('answers what GET /server/health answers: the status to anyone, the checks, release and instance to administrators', async () => {
    expect((await system('{ server_health }').expect(200)).body.data.server_health).toEqual({ status: 'ok' });
    const rest = await t.request.get('/server/health').set('Authorization', `Bearer ${admin}`).expect(200);
    const response = await system('{ server_health }').set('Authorization', `Bearer ${admin}`).expect(200);
    expect(response.body.data.server_health).toEqual({ status: 'ok', releaseId: packageVersion(), serviceId: expect.any(String), checks: { database: { status: 'ok', responseTime: expect.any(Number) } } });
    expect(Object.keys(response.body.data.server_health)).toEqual(Object.keys(rest.body));
  });
});

describe('collections, fields and relations on /graphql/system', () => {
  it('answers what REST /collections, /fields and /relations answer, in their shape', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    await t.request.post('/collections').set(auth).send({ collection: 'books', fields: [{ field: 'title', type: 'string', meta: { note: 'The title' } }, { field: 'shelf', type: 'integer' }] }).expect(200);
    await t.request.post('/collections').set(auth).send({ collection: 'shelves', fields: [{ field: 'label', type: 'string' }] }).expect(200);
    await t.request.post('/relations').set(auth).send({ collection: 'books', field: 'shelf', related_collection: 'shelves', meta: { one_field: 'books' } }).expect(200);
    const query = `{
      collections { collection }
      collections_by_name(name: "books") { collection meta { note } schema { name } }
      fields { collection field }
      fields_in_collection(collection: "books") { field type }
      fields_by_name(collection: "books", field: "title") { field type meta { note interface } schema { data_type is_nullable } }
      relations_by_name(collection: "books", field: "shelf") { related_collection meta { one_field } schema { foreign_key_table } }
      relations_in_collection(collection: "books") { field }
    }`;
    const response = await t.request.post('/graphql/system').set(auth).send({ query }).expect(200);
    expect(response.body.errors).toBeUndefined();
    const data = response.body.data;
    const rest = (await t.request.get('/collections').set(auth).expect(200)).body.data.map((entry: { collection: string }) => ({ collection: entry.collection }));
    expect(data.collections).toEqual(rest);
    expect(data.collections_by_name).toEqual({ collection: 'books', meta: { note: null }, schema: { name: 'books' } });
    expect(data.fields).toEqual((await t.request.get('/fields').set(auth).expect(200)).body.data.map((entry: { collection: string; field: string }) => ({ collection: entry.collection, field: entry.field })));
    expect(data.fields_in_collection).toEqual([
      { field: 'id', type: 'integer' },
      { field: 'title', type: 'string' },
      { field: 'shelf', type: 'integer' },
    ]);
    const title = (await t.request.get('/fields/books/title').set(auth).expect(200)).body.data;
    expect(data.fields_by_name).toEqual({ field: 'title', type: 'string', meta: { note: 'The title', interface: title.meta.interface }, schema: { data_type: 'character varying', is_nullable: true } });
    expect(data.relations_by_name).toEqual({ related_collection: 'shelves', meta: { one_field: 'books' }, schema: { foreign_key_table: 'shelves' } });
    expect(data.relations_in_collection).toEqual([{ field: 'shelf' }]);
  });

  it('leaves them out for a role that may not read the schema, and refuses a collection it cannot see', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    const role = (await t.request.post('/roles').set(auth).send({ name: 'No app', app_access: false }).expect(200)).body.data.id;
    await t.request.post('/users').set(auth).send({ email: 'api@example.com', password: 'api-password-1', role }).expect(200);
    const token = await t.login('api@example.com', 'api-password-1');
    const response = await t.request.post('/graphql/system').set({ Authorization: `Bearer ${token}` }).send({ query: '{ fields { field } }' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION');
    const missing = await t.request.post('/graphql/system').set(auth).send({ query: '{ fields_in_collection(collection: "nope") { field } }' }).expect(200);
    expect(missing.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
