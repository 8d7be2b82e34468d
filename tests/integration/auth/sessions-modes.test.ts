import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from '../../../server/auth/auth-service.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { parseSetCookies, type SetCookie } from './sessions-cookie-jar.ts';

const DAY = 86_400_000;

function cookie(header: string | string[] | undefined, name: string): SetCookie {
  const found = parseSetCookies(header).find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no ${name} cookie in ${JSON.stringify(header)}`);
  return found;
}

/** The cookie and its signature, as a Cookie request header. */
function cookieHeader(header: string | string[] | undefined, name: string): string {
  return `${name}=${cookie(header, name).value}; ${name}.sig=${cookie(header, `${name}.sig`).value}`;
}

describe('POST /auth/login modes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('json (the default) returns all three tokens and sets no cookie', async () => {
    const response = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'json' }).expect(200);
    expect(Object.keys(response.body.data).sort()).toEqual(['access_token', 'expires', 'refresh_token']);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('cookie sets the refresh token as an httpOnly, SameSite=Lax cookie and leaves it out of the body', async () => {
    const response = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'cookie' }).expect(200);
    expect(Object.keys(response.body.data).sort()).toEqual(['access_token', 'expires']);
    const refresh = cookie(response.headers['set-cookie'], 'tessera_refresh_token');
    expect(refresh.attributes).toEqual(expect.arrayContaining(['path=/', 'samesite=lax', 'httponly']));
    expect(refresh.attributes.some((attribute) => /^secure$/i.test(attribute))).toBe(false);
    expect(refresh.attributes.find((attribute) => attribute.startsWith('expires='))).toBeDefined();
    const stored = await t.system.db.selectFrom('tessera_sessions').select('token').where('token', '=', hashSessionToken(refresh.value)).execute();
    expect(stored).toHaveLength(1);
    await t.request.get('/users/me').set('Authorization', `Bearer ${response.body.data.access_token}`).expect(200);
  });

  it('session sets the httpOnly session cookie and returns only the expiry', async () => {
    const response = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'session' }).expect(200);
    expect(response.body.data).toEqual({ expires: 2_592_000_000 });
    const session = cookie(response.headers['set-cookie'], 'tessera_session_token');
    expect(session.attributes).toEqual(expect.arrayContaining(['path=/', 'samesite=lax', 'httponly']));
    const me = await t.request.get('/users/me').set('Cookie', cookieHeader(response.headers['set-cookie'], 'tessera_session_token')).expect(200);
    expect(me.body.data.email).toBe(TEST_ADMIN.email);
  });

  it('refuses an unknown mode, naming the field', async () => {
    const response = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'jwt' }).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'mode' });
  });
});

describe('session cookie on an https PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://cms.example.test' });
  });
  afterAll(() => t.close());

  it('is Secure, though TLS ends before Tessera', async () => {
    const response = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'session' }).expect(200);
    const session = cookie(response.headers['set-cookie'], 'tessera_session_token');
    expect(session.attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax']));
    const refresh = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'cookie' }).expect(200);
    expect(cookie(refresh.headers['set-cookie'], 'tessera_refresh_token').attributes).toContain('secure');
  });
});

describe('/auth/refresh and /auth/logout per mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('cookie mode: refresh reads the cookie, rotates it and keeps the mode; the old cookie is refused', async () => {
    const login = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'cookie' }).expect(200);
    const first = cookieHeader(login.headers['set-cookie'], 'tessera_refresh_token');
    const refreshed = await t.request.post('/auth/refresh').set('Cookie', first).send({ mode: 'cookie' }).expect(200);
    expect(Object.keys(refreshed.body.data).sort()).toEqual(['access_token', 'expires']);
    const second = cookieHeader(refreshed.headers['set-cookie'], 'tessera_refresh_token');
    expect(second).not.toBe(first);
    const replay = await t.request.post('/auth/refresh').set('Cookie', first).send({ mode: 'cookie' }).expect(401);
    expect(replay.body.errors[0].extensions.code).toBe('INVALID_TOKEN');
    // Without a mode, the cookie alone says which mode this is.
    const implicit = await t.request.post('/auth/refresh').set('Cookie', second).send({}).expect(200);
    expect(Object.keys(implicit.body.data).sort()).toEqual(['access_token', 'expires']);
    const third = cookieHeader(implicit.headers['set-cookie'], 'tessera_refresh_token');

    const logout = await t.request.post('/auth/logout').set('Cookie', third).send({ mode: 'cookie' }).expect(204);
    const cleared = cookie(logout.headers['set-cookie'], 'tessera_refresh_token');
    expect(cleared.value).toBe('');
    await t.request.post('/auth/refresh').set('Cookie', third).send({ mode: 'cookie' }).expect(401);
  });

  it('session mode: refresh rotates the session cookie and answers with the expiry only', async () => {
    const login = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'session' }).expect(200);
    const first = cookieHeader(login.headers['set-cookie'], 'tessera_session_token');
    const refreshed = await t.request.post('/auth/refresh').set('Cookie', first).send({ mode: 'session' }).expect(200);
    expect(refreshed.body.data).toEqual({ expires: 2_592_000_000 });
    const second = cookieHeader(refreshed.headers['set-cookie'], 'tessera_session_token');
    expect(second).not.toBe(first);
    // The old session is gone: its cookie now signs nobody in.
    // Documented: the request goes on as the public role (which may not read /users/me), and the answer expires the cookie.
    const stale = await t.request.get('/users/me').set('Cookie', first).expect(403);
    expect(stale.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(cookie(stale.headers['set-cookie'], 'tessera_session_token').value).toBe('');
    await t.request.get('/users/me').set('Cookie', second).expect(200);

    await t.request.post('/auth/logout').set('Cookie', second).send({ mode: 'session' }).expect(204);
    const after = await t.request.get('/users/me').set('Cookie', second).expect(403);
    expect(after.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(cookie(after.headers['set-cookie'], 'tessera_session_token').value).toBe('');
  });

  it('json mode still takes the token from the body, even with a cookie present', async () => {
    const cookieLogin = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'cookie' }).expect(200);
    const jsonLogin = await t.request.post('/auth/login').send(TEST_ADMIN).expect(200);
    const refreshed = await t.request
      .post('/auth/refresh')
      .set('Cookie', cookieHeader(cookieLogin.headers['set-cookie'], 'tessera_refresh_token'))
      .send({ refresh_token: jsonLogin.body.data.refresh_token })
      .expect(200);
    expect(Object.keys(refreshed.body.data).sort()).toEqual(['access_token', 'expires', 'refresh_token']);
    expect(refreshed.headers['set-cookie']).toBeUndefined();
  });

  it('names refresh_token when no token arrives at all, and rejects a tampered cookie with INVALID_TOKEN', async () => {
    const none = await t.request.post('/auth/refresh').send({ mode: 'cookie' }).expect(400);
    expect(none.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'refresh_token' });
    const login = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'cookie' }).expect(200);
    const real = cookie(login.headers['set-cookie'], 'tessera_refresh_token');
    const signature = cookie(login.headers['set-cookie'], 'tessera_refresh_token.sig');
    const tampered = `tessera_refresh_token=${real.value.slice(0, -2)}xx; tessera_refresh_token.sig=${signature.value}`;
    const refused = await t.request.post('/auth/refresh').set('Cookie', tampered).send({ mode: 'cookie' }).expect(401);
    expect(refused.body.errors[0].extensions.code).toBe('INVALID_TOKEN');
    const unsigned = await t.request.post('/auth/logout').set('Cookie', `tessera_refresh_token=${real.value}`).send({ mode: 'cookie' }).expect(401);
    expect(unsigned.body.errors[0].extensions.code).toBe('INVALID_TOKEN');
  });
});

describe('token sources', () => {
  let t: TestApp;
  let accessToken: string;
  let sessionCookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    accessToken = await t.login();
    const login = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'session' }).expect(200);
    sessionCookie = cookieHeader(login.headers['set-cookie'], 'tessera_session_token');
  });
  afterAll(() => t.close());

  it('accepts Authorization: Bearer', async () => {
    const me = await t.request.get('/users/me').set('Authorization', `Bearer ${accessToken}`).expect(200);
    expect(me.body.data.email).toBe(TEST_ADMIN.email);
  });

  it('accepts ?access_token=', async () => {
    const me = await t.request.get(`/users/me?access_token=${accessToken}`).expect(200);
    expect(me.body.data.email).toBe(TEST_ADMIN.email);
  });

  it('accepts the session cookie', async () => {
    const me = await t.request.get('/users/me').set('Cookie', sessionCookie).expect(200);
    expect(me.body.data.email).toBe(TEST_ADMIN.email);
  });

  it('lets a bearer token win over the session cookie, and a bad bearer token fails even with a good cookie', async () => {
    await t.request.get('/users/me').set('Cookie', sessionCookie).set('Authorization', `Bearer ${accessToken}`).expect(200);
    const bad = await t.request.get('/users/me').set('Cookie', sessionCookie).set('Authorization', 'Bearer not.a.jwt').expect(401);
    expect(bad.body.errors[0].extensions.code).toBe('INVALID_TOKEN');
  });

  it('treats a tampered or unsigned session cookie as signed out and clears it', async () => {
    const value = sessionCookie.split(';')[0]!.split('=')[1]!;
    const signature = sessionCookie.split('; ')[1]!;
    // Change the last character to a different one (a fixed 'A' left 1 token in 64 untouched).
    const tampered = `${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
    for (const header of [`tessera_session_token=${tampered}; ${signature}`, `tessera_session_token=${value}`]) {
      const response = await t.request.get('/users/me').set('Cookie', header);
      expect([response.status, response.body.errors?.[0]?.extensions?.code]).toEqual([403, 'FORBIDDEN']);
      expect(cookie(response.headers['set-cookie'], 'tessera_session_token').value).toBe('');
    }
  });
});

describe('session lifetime', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function signIn(): Promise<{ header: string; hash: string }> {
    const login = await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: 'session' }).expect(200);
    return {
      header: cookieHeader(login.headers['set-cookie'], 'tessera_session_token'),
      hash: hashSessionToken(cookie(login.headers['set-cookie'], 'tessera_session_token').value),
    };
  }
  async function expiresOf(hash: string): Promise<Date | undefined> {
    const row = await t.system.db.selectFrom('tessera_sessions').select('expires').where('token', '=', hash).executeTakeFirst();
    return row ? new Date(row.expires) : undefined;
  }

  it('lasts 30 days (2,592,000 s)', async () => {
    const { hash } = await signIn();
    const lifetime = (await expiresOf(hash))!.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(2_592_000_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(2_592_000_000);
  });

  it('is not extended within a day of its last update', async () => {
    const { header, hash } = await signIn();
    const set = new Date(Date.now() + 30 * DAY - 23 * 60 * 60 * 1000);
    await t.system.db.updateTable('tessera_sessions').set({ expires: set }).where('token', '=', hash).execute();
    const response = await t.request.get('/users/me').set('Cookie', header).expect(200);
    expect((await expiresOf(hash))!.getTime()).toBe(set.getTime());
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('is extended to a full 30 days on use once older than a day, with a fresh cookie', async () => {
    const { header, hash } = await signIn();
    await t.system.db.updateTable('tessera_sessions').set({ expires: new Date(Date.now() + 28 * DAY) }).where('token', '=', hash).execute();
    const response = await t.request.get('/users/me').set('Cookie', header).expect(200);
    const lifetime = (await expiresOf(hash))!.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(30 * DAY - 60_000);
    const renewed = cookie(response.headers['set-cookie'], 'tessera_session_token');
    expect(renewed.value).toBe(header.split(';')[0]!.split('=')[1]);
  });

  it('is deleted when used after expiry, and the cookie is cleared', async () => {
    const { header, hash } = await signIn();
    await t.system.db.updateTable('tessera_sessions').set({ expires: new Date(Date.now() - 1000) }).where('token', '=', hash).execute();
    const response = await t.request.get('/users/me').set('Cookie', header);
    expect([response.status, response.body.errors?.[0]?.extensions?.code]).toEqual([403, 'FORBIDDEN']);
    expect(cookie(response.headers['set-cookie'], 'tessera_session_token').value).toBe('');
    expect(await expiresOf(hash)).toBeUndefined();
  });

  it('is gone once the user is no longer active', async () => {
    const users = await import('../../../server/services/users-service.ts');
    const service = new users.UsersService(t.system);
    const id = await service.createOne({ email: 'leaving@example.com', password: 'leaving-password-1', status: 'active' });
    const login = await t.request.post('/auth/login').send({ email: 'leaving@example.com', password: 'leaving-password-1', mode: 'session' }).expect(200);
    const header = cookieHeader(login.headers['set-cookie'], 'tessera_session_token');
    await t.request.get('/users/me').set('Cookie', header).expect(200);
    await t.system.db.updateTable('tessera_users').set({ status: 'suspended' }).where('id', '=', id).execute();
    const response = await t.request.get('/users/me').set('Cookie', header);
    expect([response.status, response.body.errors?.[0]?.extensions?.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('cleans up every expired row when a session is opened', async () => {
    const a = await signIn();
    const b = await signIn();
    await t.system.db.updateTable('tessera_sessions').set({ expires: new Date(Date.now() - DAY) }).where('token', 'in', [a.hash, b.hash]).execute();
    await signIn();
    expect(await expiresOf(a.hash)).toBeUndefined();
    expect(await expiresOf(b.hash)).toBeUndefined();
    const expired = await t.system.db.selectFrom('tessera_sessions').select('token').where('expires', '<=', new Date()).execute();
    expect(expired).toHaveLength(0);
  });
});
