import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../../server/auth/access-token.ts';
import { hashSessionToken } from '../../../server/auth/auth-service.ts';
import { deriveKey } from '../../../server/auth/secret-keys.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

describe('POST /auth/login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const users = new UsersService(t.system);
    await users.createOne({ email: 'suspended@example.com', password: 'suspended-pass', status: 'suspended' });
  });
  afterAll(() => t.close());

  it('returns an access token, its lifetime and a refresh token', async () => {
    const response = await t.request.post('/auth/login').send(TEST_ADMIN).expect(200);
    const { access_token, expires, refresh_token } = response.body.data;
    expect(access_token.split('.')).toHaveLength(3);
    expect(expires).toBe(15 * 60 * 1000);
    expect(refresh_token).toMatch(/^[\w-]{43}$/);
  });

  it('stores only the SHA-256 of the refresh token, with the 30-day lifetime', async () => {
    const response = await t.request.post('/auth/login').set('User-Agent', 'vitest-agent').send(TEST_ADMIN).expect(200);
    const { refresh_token } = response.body.data;
    const session = await t.system.db.selectFrom('tessera_sessions').selectAll().where('token', '=', hashSessionToken(refresh_token)).executeTakeFirstOrThrow();
    expect(session.user_agent).toBe('vitest-agent');
    const lifetime = new Date(session.expires).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(2_592_000_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(2_592_000_000);
    const raw = await t.system.db.selectFrom('tessera_sessions').select('token').where('token', '=', refresh_token).execute();
    expect(raw).toHaveLength(0);
  });

  it('normalises the e-mail (case, spaces, a trailing comma part)', async () => {
    await t.request.post('/auth/login').send({ email: '  ADMIN@Example.com ', password: TEST_ADMIN.password }).expect(200);
    await t.request.post('/auth/login').send({ email: 'admin@EXAMPLE.com,other.example', password: TEST_ADMIN.password }).expect(200);
  });

  it('answers a wrong password and an unknown e-mail alike: 401 INVALID_CREDENTIALS', async () => {
    const wrong = await t.request.post('/auth/login').send({ email: TEST_ADMIN.email, password: 'wrong-password' }).expect(401);
    const unknown = await t.request.post('/auth/login').send({ email: 'nobody@example.com', password: 'wrong-password' }).expect(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses users who are not active with USER_SUSPENDED', async () => {
    const response = await t.request.post('/auth/login').send({ email: 'suspended@example.com', password: 'suspended-pass' }).expect(401);
    expect(response.body.errors[0].extensions.code).toBe('USER_SUSPENDED');
  });

  it('names the missing or malformed field with 400 INVALID_PAYLOAD', async () => {
    const missing = await t.request.post('/auth/login').send({ email: TEST_ADMIN.email }).expect(400);
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'password' });
    const malformed = await t.request.post('/auth/login').send({ email: 'not-an-email', password: 'x' }).expect(400);
    expect(malformed.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'email' });
  });
});

describe('POST /auth/refresh and /auth/logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('rotates the refresh token: the new one works, the old one is refused', async () => {
    const login = await t.request.post('/auth/login').send(TEST_ADMIN).expect(200);
    const first = login.body.data.refresh_token;
    const refreshed = await t.request.post('/auth/refresh').send({ refresh_token: first }).expect(200);
    expect(refreshed.body.data).toMatchObject({ expires: 900_000, access_token: expect.any(String) });
    expect(refreshed.body.data.refresh_token).not.toBe(first);
    await t.request.get('/users/me').set('Authorization', `Bearer ${refreshed.body.data.access_token}`).expect(200);
    const replay = await t.request.post('/auth/refresh').send({ refresh_token: first }).expect(401);
    expect(replay.body.errors[0].extensions.code).toBe('INVALID_TOKEN');
  });

  it('logs out: the session is gone and its refresh token no longer works', async () => {
    const login = await t.request.post('/auth/login').send(TEST_ADMIN).expect(200);
    const token = login.body.data.refresh_token;
    await t.request.post('/auth/logout').send({ refresh_token: token }).expect(204);
    expect(await t.system.db.selectFrom('tessera_sessions').select('token').where('token', '=', hashSessionToken(token)).execute()).toHaveLength(0);
    await t.request.post('/auth/refresh').send({ refresh_token: token }).expect(401);
    await t.request.post('/auth/logout').send({}).expect(400);
  });

  it('refuses an expired session', async () => {
    const login = await t.request.post('/auth/login').send(TEST_ADMIN).expect(200);
    const token = login.body.data.refresh_token;
    await t.system.db.updateTable('tessera_sessions').set({ expires: new Date(Date.now() - 1000) }).where('token', '=', hashSessionToken(token)).execute();
    await t.request.post('/auth/refresh').send({ refresh_token: token }).expect(401);
  });
});

describe('bearer accountability', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('identifies the caller from Authorization: Bearer and from ?access_token=', async () => {
    const token = await t.login();
    const header = await t.request.get('/users/me').set('Authorization', `Bearer ${token}`).expect(200);
    expect(header.body.data.email).toBe(TEST_ADMIN.email);
    expect(header.body.data.password).toBe('**********');
    expect(JSON.stringify(header.body)).not.toContain('$argon2');
    const query = await t.request.get(`/users/me?access_token=${token}`).expect(200);
    expect(query.body.data.id).toBe(header.body.data.id);
  });

  it('treats a caller without a token as the public: /users/me is FORBIDDEN', async () => {
    const response = await t.request.get('/users/me').expect(403);
    expect(response.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('rejects a tampered token with 401 INVALID_TOKEN', async () => {
    const token = await t.login();
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), id: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
    const response = await t.request.get('/users/me').set('Authorization', `Bearer ${header}.${forged}.${signature}`).expect(401);
    expect(response.body.errors[0].extensions.code).toBe('INVALID_TOKEN');
    await t.request.get('/users/me').set('Authorization', 'Basic abc').expect(401);
  });

  it('stops accepting a token at its expiry even after it was accepted (and cached) before', async () => {
    const key = deriveKey(t.context.config.secret, 'access-token');
    const me = await t.request.get('/users/me').set('Authorization', `Bearer ${await t.login()}`).expect(200);
    // Long enough to be accepted first even on a busy machine; then wait until the clock is past its exp
    // (whole seconds), however long that first request took.
    const shortLived = await signAccessToken({ id: me.body.data.id, role: null, admin_access: false, app_access: false, session: 's' }, key, 4_000);
    await t.request.get('/users/me').set('Authorization', `Bearer ${shortLived}`).expect(200);
    const { exp } = JSON.parse(Buffer.from(shortLived.split('.')[1]!, 'base64url').toString()) as { exp: number };
    while (Date.now() < (exp + 1) * 1000) await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await t.request.get('/users/me').set('Authorization', `Bearer ${shortLived}`).expect(401);
    expect(response.body.errors[0].extensions.code).toBe('TOKEN_EXPIRED');
  });

  it('rejects an expired token with 401 TOKEN_EXPIRED', async () => {
    const key = deriveKey(t.context.config.secret, 'access-token');
    const expired = await signAccessToken({ id: 'x', role: null, admin_access: false, app_access: false, session: 's' }, key, -1000);
    const response = await t.request.get('/users/me').set('Authorization', `Bearer ${expired}`).expect(401);
    expect(response.body.errors[0].extensions.code).toBe('TOKEN_EXPIRED');
  });
});
