import { sql } from 'kysely';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey } from '../../../server/auth/secret-keys.ts';
import { decryptTfaSecret } from '../../../server/auth/tfa-secret-crypto.ts';
import { startSecondInstance } from '../../helpers/second-instance.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PASSWORD = 'Tfa-user-pass1';

describe('two-factor authentication (/users/me/tfa and sign-in with otp)', () => {
  let t: TestApp;
  let admin: { Authorization: string };
  let userId: string;
  let user: { Authorization: string };

  /** A code for `secret` that is certainly not the current one (nor the neighbouring steps'). */
  async function wrongCode(secret: string): Promise<string> {
    const current = await generate({ secret });
    return String((Number(current) + 500_000) % 1_000_000).padStart(6, '0');
  }

  /** The code of the step `offset` steps away from now (-1 previous, +1 next). */
  async function codeAt(secret: string, offset: number): Promise<string> {
    return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });
  }

  /** Waits, if needed, until at least 6 s of the current 30-second step remain, so "now" stays one step. */
  async function awayFromStepBoundary(): Promise<void> {
    const left = 30_000 - (Date.now() % 30_000);
    if (left < 6_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
  }

  async function storedSecret(): Promise<string | null> {
    const row = await t.system.db.selectFrom('tessera_users').select('tfa_secret').where('id', '=', userId).executeTakeFirstOrThrow();
    return row.tfa_secret;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = { Authorization: `Bearer ${await t.login()}` };
    await t.request.patch('/settings').set(admin).send({ project_name: 'Acme CMS' }).expect(200);
    const created = await t.request.post('/users').set(admin).send({ email: 'tfa@example.com', password: PASSWORD, status: 'active' }).expect(200);
    userId = created.body.data.id;
    user = { Authorization: `Bearer ${await t.login('tfa@example.com', PASSWORD)}` };
  });
  afterAll(() => t.close());

  it('refuses anonymous callers and checks the password again before generating', async () => {
    await t.request.post('/users/me/tfa/generate').send({ password: PASSWORD }).expect(403);
    const missing = await t.request.post('/users/me/tfa/generate').set(user).send({}).expect(400);
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'password' });
    const wrong = await t.request.post('/users/me/tfa/generate').set(user).send({ password: 'not-it' }).expect(401);
    expect(wrong.body.errors[0].extensions).toMatchObject({ code: 'INVALID_CREDENTIALS', field: 'password' });
  });

  it('generate → enable → sign-in needs the otp → disable', async () => {
    const generated = await t.request.post('/users/me/tfa/generate').set(user).send({ password: PASSWORD }).expect(200);
    const { secret, otpauth_url } = generated.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toBe(`otpauth://totp/Acme%20CMS:tfa%40example.com?secret=${secret}&issuer=Acme%20CMS`);
    expect(await storedSecret()).toBeNull();

    const wrongEnable = await t.request.post('/users/me/tfa/enable').set(user).send({ secret, otp: await wrongCode(secret) }).expect(401);
    expect(wrongEnable.body.errors[0].extensions.code).toBe('INVALID_OTP');
    const badSecret = await t.request.post('/users/me/tfa/enable').set(user).send({ secret: 'not base32!', otp: '123456' }).expect(400);
    expect(badSecret.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'secret' });
    const noOtp = await t.request.post('/users/me/tfa/enable').set(user).send({ secret }).expect(400);
    expect(noOtp.body.errors[0].extensions.field).toBe('otp');

    // Codes of three steps in a row: each works once, in order (enable, sign in, disable).
    await awayFromStepBoundary();
    const [previous, current, next] = [await codeAt(secret, -1), await codeAt(secret, 0), await codeAt(secret, 1)];
    await t.request.post('/users/me/tfa/enable').set(user).send({ secret, otp: previous }).expect(204);

    // Encrypted at rest: the column holds neither the secret nor anything that decrypts without SECRET.
    const stored = (await storedSecret())!;
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain(secret);
    expect(decryptTfaSecret(stored, deriveKey(t.context.config.secret, 'tfa-secret'), userId)).toBe(secret);
    expect(decryptTfaSecret(stored, deriveKey('some-other-secret-value', 'tfa-secret'), userId)).toBeNull();
    // …and concealed in responses.
    const read = await t.request.get(`/users/${userId}?fields=tfa_secret`).set(admin).expect(200);
    expect(read.body.data.tfa_secret).toBe('**********');

    const again = await t.request.post('/users/me/tfa/generate').set(user).send({ password: PASSWORD }).expect(400);
    expect(again.body.errors[0].message).toContain('already enabled');

    const withoutOtp = await t.request.post('/auth/login').send({ email: 'tfa@example.com', password: PASSWORD }).expect(401);
    expect(withoutOtp.body.errors[0].extensions).toEqual({ code: 'INVALID_OTP', field: 'otp' });
    expect(withoutOtp.body.errors[0].message).toBe('"otp" is required: two-factor authentication is enabled for this user.');
    const wrongOtp = await t.request.post('/auth/login').send({ email: 'tfa@example.com', password: PASSWORD, otp: await wrongCode(secret) }).expect(401);
    expect(wrongOtp.body.errors[0].extensions.code).toBe('INVALID_OTP');
    const malformedOtp = await t.request.post('/auth/login').send({ email: 'tfa@example.com', password: PASSWORD, otp: 'abc' }).expect(401);
    expect(malformedOtp.body.errors[0].extensions.code).toBe('INVALID_OTP');
    // A wrong password is still INVALID_CREDENTIALS, whatever the otp: TFA does not reveal a correct password.
    const wrongPassword = await t.request.post('/auth/login').send({ email: 'tfa@example.com', password: 'wrong', otp: await generate({ secret }) }).expect(401);
    expect(wrongPassword.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    // The code that enabled TFA cannot sign in: it has been used.
    const enableCode = await t.request.post('/auth/login').send({ email: 'tfa@example.com', password: PASSWORD, otp: previous }).expect(401);
    expect(enableCode.body.errors[0].extensions.code).toBe('INVALID_OTP');
    await t.request.post('/auth/login').send({ email: 'tfa@example.com', password: PASSWORD, otp: current }).expect(200);

    const wrongDisable = await t.request.post('/users/me/tfa/disable').set(user).send({ otp: await wrongCode(secret) }).expect(401);
    expect(wrongDisable.body.errors[0].extensions.code).toBe('INVALID_OTP');
    expect(await storedSecret()).not.toBeNull();
    // A code already used to sign in cannot turn TFA off (someone who saw it over a shoulder).
    const usedDisable = await t.request.post('/users/me/tfa/disable').set(user).send({ otp: current }).expect(401);
    expect(usedDisable.body.errors[0].extensions.code).toBe('INVALID_OTP');
    await t.request.post('/users/me/tfa/disable').set(user).send({ otp: next }).expect(204);
    expect(await storedSecret()).toBeNull();
    await t.request.post('/auth/login').send({ email: 'tfa@example.com', password: PASSWORD }).expect(200);
    const notOn = await t.request.post('/users/me/tfa/disable').set(user).send({ otp: '123456' }).expect(400);
    expect(notOn.body.errors[0].message).toBe('Two-factor authentication is not enabled.');
  });

  it('tfa_secret cannot be set through /users, only cleared (an administrator turning TFA off)', async () => {
    const refused = await t.request.patch(`/users/${userId}`).set(admin).send({ tfa_secret: 'JR3R6RHC6D5CAW3BJ5DEFF7NXERZDUYO' }).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'tfa_secret' });
    const { secret } = (await t.request.post('/users/me/tfa/generate').set(user).send({ password: PASSWORD }).expect(200)).body.data;
    // A new secret starts over: its current code enables it although a later step of the old secret was used.
    await t.request.post('/users/me/tfa/enable').set(user).send({ secret, otp: await generate({ secret }) }).expect(204);
    await t.request.patch(`/users/${userId}`).set(admin).send({ tfa_secret: null }).expect(200);
    expect(await storedSecret()).toBeNull();
    await t.request.post('/auth/login').send({ email: 'tfa@example.com', password: PASSWORD }).expect(200);
  });
});

describe('a TOTP code signs in once, on every instance', () => {
  let t: TestApp;
  let secret: string;
  let userId: string;
  const credentials = { email: 'replay@example.com', password: PASSWORD };

  async function awayFromStepBoundary(): Promise<void> {
    const left = 30_000 - (Date.now() % 30_000);
    if (left < 6_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
  }
  const codeAt = (offset: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

  beforeAll(async () => {
    t = await createTestApp();
    const admin = { Authorization: `Bearer ${await t.login()}` };
    userId = (await t.request.post('/users').set(admin).send({ ...credentials, status: 'active' }).expect(200)).body.data.id;
    const user = { Authorization: `Bearer ${await t.login(credentials.email, credentials.password)}` };
    secret = (await t.request.post('/users/me/tfa/generate').set(user).send({ password: PASSWORD }).expect(200)).body.data.secret;
    await awayFromStepBoundary();
    await t.request.post('/users/me/tfa/enable').set(user).send({ secret, otp: await codeAt(-1) }).expect(204);
  });
  afterAll(() => t.close());

  it('refuses a replayed code with INVALID_OTP, also when two sign-ins race with it', async () => {
    await awayFromStepBoundary();
    const code = await codeAt(0);
    await t.request.post('/auth/login').send({ ...credentials, otp: code }).expect(200);
    const replay = await t.request.post('/auth/login').send({ ...credentials, otp: code }).expect(401);
    expect(replay.body.errors[0].extensions.code).toBe('INVALID_OTP');
    // The record is in the database, so another instance on the same database refuses it too.
    const other = await startSecondInstance(t);
    try {
      expect((await other.request.post('/auth/login').send({ ...credentials, otp: code }).expect(401)).body.errors[0].extensions.code).toBe('INVALID_OTP');
    } finally {
      await other.close();
    }
    const { rows } = await sql<{ step: string }>`select step from tessera_internal.tfa_used_steps where "user" = ${userId}`.execute(t.system.db);
    expect(Number(rows[0]!.step)).toBe(Math.floor(Date.now() / 30_000));

    // The next step's code works once; two sign-ins racing with it: exactly one wins.
    const next = await codeAt(1);
    const raced = await Promise.all([1, 2, 3].map(() => t.request.post('/auth/login').send({ ...credentials, otp: next })));
    expect(raced.map((response) => response.status).sort()).toEqual([200, 401, 401]);
    // Once a later step was used, the current (older) code is refused too: codes only move forward.
    expect((await t.request.post('/auth/login').send({ ...credentials, otp: code }).expect(401)).body.errors[0].extensions.code).toBe('INVALID_OTP');
  });
});
