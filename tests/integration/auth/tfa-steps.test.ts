import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PASSWORD = 'Tfa-steps-pass1';
const STEP_SECONDS = 30;

/**
 * Waits until at least `margin` seconds remain in the current 30-second step, so codes made for "the
 * previous step" and "the next step" still are those when the server checks them, even on a busy machine.
 */
async function awayFromStepBoundary(margin = 10): Promise<number> {
  const left = STEP_SECONDS - ((Date.now() / 1000) % STEP_SECONDS);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
  return Math.floor(Date.now() / 1000);
}

/** The code of the step `offset` steps away from now. */
function codeAt(secret: string, now: number, offset: number): Promise<string> {
  return generate({ secret, epoch: now + offset * STEP_SECONDS });
}

describe('TOTP steps accepted at sign-in (docs/auth.md: previous and next step, phone clocks drift)', () => {
  let t: TestApp;
  let secret: string;

  const login = (otp: string) => t.request.post('/auth/login').send({ email: 'steps@example.com', password: PASSWORD, otp });

  beforeAll(async () => {
    t = await createTestApp();
    const admin = { Authorization: `Bearer ${await t.login()}` };
    // Wrong codes below count as failed sign-ins; keep the lockout out of this test's way.
    await t.request.patch('/settings').set(admin).send({ auth_login_attempts: 1000 }).expect(200);
    await t.request.post('/users').set(admin).send({ email: 'steps@example.com', password: PASSWORD, status: 'active' }).expect(200);
    const user = { Authorization: `Bearer ${await t.login('steps@example.com', PASSWORD)}` };
    secret = (await t.request.post('/users/me/tfa/generate').set(user).send({ password: PASSWORD }).expect(200)).body.data.secret;
    await t.request.post('/users/me/tfa/enable').set(user).send({ secret, otp: await generate({ secret }) }).expect(204);
  });
  afterAll(() => t.close());

  it('accepts the code of the previous and of the next 30-second step', async () => {
    const now = await awayFromStepBoundary();
    const previous = await codeAt(secret, now, -1);
    const next = await codeAt(secret, now, 1);
    // Codes only move forward (none works twice): the enabling code used this step, so start as a user
    // whose last code is long past, for whom the previous step's code is new.
    await sql`delete from tessera_internal.tfa_used_steps`.execute(t.system.db);
    expect((await login(previous)).status).toBe(200);
    expect((await login(next)).status).toBe(200);
  });

  it('refuses codes two steps away either side with 401 INVALID_OTP', async () => {
    const now = await awayFromStepBoundary();
    const near = new Set([await codeAt(secret, now, -1), await codeAt(secret, now, 0), await codeAt(secret, now, 1)]);
    for (const offset of [-2, 2]) {
      const far = await codeAt(secret, now, offset);
      // Two steps can share a code by chance (one in a million); such a code proves nothing here.
      if (near.has(far)) continue;
      const refused = await login(far).expect(401);
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_OTP' });
    }
  });
});

describe('static tokens of users whose role enforces TFA (docs/auth.md: same rule as any other token)', () => {
  let t: TestApp;
  let admin: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = { Authorization: `Bearer ${await t.login()}` };
  });
  afterAll(() => t.close());

  it('opens only TFA setup routes until the user has TFA, then everything the role allows', async () => {
    const role = (await t.request.post('/roles').set(admin).send({ name: 'Robots with TFA', enforce_tfa: true, app_access: true }).expect(200)).body.data.id;
    const userId = (await t.request.post('/users').set(admin).send({ email: 'robot@example.com', password: PASSWORD, status: 'active', role }).expect(200)).body.data.id;
    const token = randomBytes(24).toString('base64url');
    await t.request.patch(`/users/${userId}`).set(admin).send({ token }).expect(200);
    const bearer = { Authorization: `Bearer ${token}` };

    const refused = await t.request.get('/collections').set(bearer).expect(403);
    expect(refused.body.errors[0].extensions).toEqual({ code: 'TFA_SETUP_REQUIRED' });
    expect((await t.request.get(`/collections?access_token=${token}`).expect(403)).body.errors[0].extensions.code).toBe('TFA_SETUP_REQUIRED');
    expect((await t.request.patch('/users/me').set(bearer).send({ first_name: 'R' }).expect(403)).body.errors[0].extensions.code).toBe('TFA_SETUP_REQUIRED');
    expect((await t.request.get('/users/me?fields=email').set(bearer).expect(200)).body.data).toEqual({ email: 'robot@example.com' });

    const { secret } = (await t.request.post('/users/me/tfa/generate').set(bearer).send({ password: PASSWORD }).expect(200)).body.data;
    await t.request.post('/users/me/tfa/enable').set(bearer).send({ secret, otp: await generate({ secret }) }).expect(204);
    const collections = await t.request.get('/collections').set(bearer).expect(200);
    expect(Array.isArray(collections.body.data)).toBe(true);
    await t.request.patch('/users/me').set(bearer).send({ first_name: 'R' }).expect(200);
  });
});
