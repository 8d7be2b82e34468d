import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashStaticToken } from '../../../server/auth/static-token.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PASSWORD = 'Token-pass-1';

function code(response: { body: { errors: Array<{ extensions: { code: string } }> } }): string {
  return response.body.errors[0]!.extensions.code;
}

describe('static tokens (users.token)', () => {
  let t: TestApp;
  let admin: { Authorization: string };
  let userId: string;
  const token = randomBytes(24).toString('base64url');

  beforeAll(async () => {
    t = await createTestApp();
    admin = { Authorization: `Bearer ${await t.login()}` };
    const role = (await t.request.post('/roles').set(admin).send({ name: 'Robots', app_access: true }).expect(200)).body.data.id;
    const created = await t.request.post('/users').set(admin).send({ email: 'robot@example.com', password: PASSWORD, status: 'active', role }).expect(200);
    userId = created.body.data.id;
  });
  afterAll(() => t.close());

  it('is set through /users, stored only as its SHA-256, and never returned', async () => {
    const updated = await t.request.patch(`/users/${userId}?fields=id,token`).set(admin).send({ token }).expect(200);
    expect(updated.body.data.token).toBe('**********');
    const row = await t.system.db.selectFrom('tessera_users').select('token').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(row.token).toBe(hashStaticToken(token));
    const listed = await t.request.get('/users?fields=email,token&filter[email][_eq]=robot@example.com').set(admin).expect(200);
    expect(listed.body.data).toEqual([{ email: 'robot@example.com', token: '**********' }]);
  });

  it('signs requests in as its user, as a bearer token or ?access_token=', async () => {
    const me = await t.request.get('/users/me?fields=id,email').set({ Authorization: `Bearer ${token}` }).expect(200);
    expect(me.body.data).toEqual({ id: userId, email: 'robot@example.com' });
    const query = await t.request.get(`/users/me?fields=id&access_token=${token}`).expect(200);
    expect(query.body.data.id).toBe(userId);
  });

  it('carries the user\'s role: an admin user\'s static token is an admin caller', async () => {
    const adminId = (await t.system.db.selectFrom('tessera_users').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).id;
    const adminToken = randomBytes(24).toString('base64url');
    await t.request.patch(`/users/${adminId}`).set(admin).send({ token: adminToken }).expect(200);
    await t.request.get('/collections').set({ Authorization: `Bearer ${adminToken}` }).expect(200);
  });

  it('refuses unknown tokens and tokens of users who are not active with 401 INVALID_TOKEN', async () => {
    expect(code(await t.request.get('/users/me').set({ Authorization: `Bearer ${randomBytes(24).toString('base64url')}` }).expect(401))).toBe('INVALID_TOKEN');
    expect(code(await t.request.get('/users/me').set({ Authorization: 'Bearer short' }).expect(401))).toBe('INVALID_TOKEN');
    await t.request.patch(`/users/${userId}`).set(admin).send({ status: 'suspended' }).expect(200);
    expect(code(await t.request.get('/users/me').set({ Authorization: `Bearer ${token}` }).expect(401))).toBe('INVALID_TOKEN');
    await t.request.patch(`/users/${userId}`).set(admin).send({ status: 'active' }).expect(200);
    await t.request.get('/users/me').set({ Authorization: `Bearer ${token}` }).expect(200);
  });

  it('refuses guessable or JWT-shaped tokens when set, naming the field', async () => {
    const short = await t.request.patch(`/users/${userId}`).set(admin).send({ token: 'abc' }).expect(400);
    expect(short.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', field: 'token' });
    expect(short.body.errors[0].message).toContain('at least 32 characters');
    const jwtLike = await t.request.patch(`/users/${userId}`).set(admin).send({ token: `${'a'.repeat(20)}.${'b'.repeat(20)}.${'c'.repeat(20)}` }).expect(400);
    expect(jwtLike.body.errors[0].extensions.field).toBe('token');
  });

  it('stops working once cleared', async () => {
    await t.request.patch(`/users/${userId}`).set(admin).send({ token: null }).expect(200);
    expect(code(await t.request.get('/users/me').set({ Authorization: `Bearer ${token}` }).expect(401))).toBe('INVALID_TOKEN');
  });
});

describe('role.enforce_tfa', () => {
  let t: TestApp;
  let admin: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = { Authorization: `Bearer ${await t.login()}` };
  });
  afterAll(() => t.close());

  it('lets the user sign in but opens only TFA setup routes until TFA is on', async () => {
    const role = (await t.request.post('/roles').set(admin).send({ name: 'Careful', enforce_tfa: true, app_access: true }).expect(200)).body.data.id;
    await t.request.post('/users').set(admin).send({ email: 'careful@example.com', password: PASSWORD, status: 'active', role }).expect(200);
    const auth = { Authorization: `Bearer ${await t.login('careful@example.com', PASSWORD)}` };

    const me = await t.request.get('/users/me?fields=email,tfa_secret').set(auth).expect(200);
    expect(me.body.data).toEqual({ email: 'careful@example.com', tfa_secret: null });
    const refused = await t.request.get('/collections').set(auth).expect(403);
    expect(refused.body.errors[0]).toEqual({
      message: 'Your role requires two-factor authentication: set it up with /users/me/tfa/generate and /users/me/tfa/enable first.',
      extensions: { code: 'TFA_SETUP_REQUIRED' },
    });
    expect(code(await t.request.patch('/users/me').set(auth).send({ first_name: 'X' }))).toBe('TFA_SETUP_REQUIRED');

    const { secret } = (await t.request.post('/users/me/tfa/generate').set(auth).send({ password: PASSWORD }).expect(200)).body.data;
    await t.request.post('/users/me/tfa/enable').set(auth).send({ secret, otp: await generate({ secret }) }).expect(204);
    // The same token works everywhere now: the check reads the user's TFA state, not the token.
    expect(await t.request.get('/collections').set(auth).then((response) => response.status)).toBe(200);
    // The next step's code: the one that enabled TFA has been used and works no more.
    const fresh = await t.request.post('/auth/login').send({ email: 'careful@example.com', password: PASSWORD, otp: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }) }).expect(200);
    expect(fresh.body.data.access_token).toBeTruthy();
  });
});
