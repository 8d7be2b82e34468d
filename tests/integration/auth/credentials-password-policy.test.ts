import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordFingerprint, signEmailToken } from '../../../server/auth/email-tokens.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const WEAK_ONLY = 'longenough'; // 10 characters, nothing else
const STRONG = 'Str0ng!pass';

describe('settings.auth_password_policy on /users writes', () => {
  let t: TestApp;
  let auth: { Authorization: string };

  async function setPolicy(policy: string): Promise<void> {
    await t.request.patch('/settings').set(auth).send({ auth_password_policy: policy }).expect(200);
  }

  async function createUser(email: string, password: string) {
    return t.request.post('/users').set(auth).send({ email, password, status: 'active' });
  }

  beforeAll(async () => {
    t = await createTestApp();
    auth = { Authorization: `Bearer ${await t.login()}` };
  });
  afterAll(() => t.close());

  it('none: any password is accepted', async () => {
    await setPolicy('none');
    const response = await createUser('none@example.com', 'x');
    expect(response.status).toBe(200);
  });

  it('weak: fewer than 8 characters is refused naming the field and the rule; 8 or more passes', async () => {
    await setPolicy('weak');
    const short = await createUser('weak-short@example.com', 'short7c');
    expect(short.status).toBe(400);
    expect(short.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', field: 'password' });
    expect(short.body.errors[0].message).toBe("Password doesn't meet the weak password policy: it needs at least 8 characters.");
    expect((await createUser('weak-ok@example.com', WEAK_ONLY)).status).toBe(200);
    const stored = await t.system.db.selectFrom('tessera_users').select('id').where('email', '=', 'weak-short@example.com').execute();
    expect(stored).toHaveLength(0);
  });

  it('strong: needs a digit, lower and upper case, a special character and no whitespace', async () => {
    await setPolicy('strong');
    for (const password of [WEAK_ONLY, 'NoDigits!here', 'n0upper!case', 'N0LOWER!CASE', 'N0special1x', 'Has 5pace!X', 'Sh0rt!x']) {
      const response = await createUser(`strong-${Math.random().toString(36).slice(2)}@example.com`, password);
      expect(response.status, password).toBe(400);
      expect(response.body.errors[0].extensions.field).toBe('password');
      expect(response.body.errors[0].message).toContain('strong password policy');
      expect(response.body.errors[0].message).toContain('a special character');
    }
    expect((await createUser('strong-ok@example.com', STRONG)).status).toBe(200);
  });

  it('applies on update, and the new password signs in', async () => {
    await setPolicy('strong');
    const created = await createUser('changer@example.com', STRONG);
    const id = created.body.data.id as string;
    const weak = await t.request.patch(`/users/${id}`).set(auth).send({ password: WEAK_ONLY }).expect(400);
    expect(weak.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', field: 'password' });
    await t.login('changer@example.com', STRONG);
    await t.request.patch(`/users/${id}`).set(auth).send({ password: 'An0ther!Strong' }).expect(200);
    await t.login('changer@example.com', 'An0ther!Strong');
  });

  it('leaves other fields of a user free when the password is not sent, or sent back as the concealed placeholder', async () => {
    await setPolicy('strong');
    const created = await createUser('placeholder@example.com', STRONG);
    const id = created.body.data.id as string;
    await t.request.patch(`/users/${id}`).set(auth).send({ first_name: 'Ada' }).expect(200);
    await t.request.patch(`/users/${id}`).set(auth).send({ first_name: 'Ada', password: '**********' }).expect(200);
    await t.login('placeholder@example.com', STRONG);
  });

  it('applies to password reset: a weak new password is refused, the link still works for a strong one', async () => {
    await setPolicy('strong');
    await createUser('reset@example.com', STRONG);
    const user = await t.system.db.selectFrom('tessera_users').select(['id', 'email', 'password']).where('email', '=', 'reset@example.com').executeTakeFirstOrThrow();
    const token = await signEmailToken(t.context.config.secret, 'password-reset', { userId: user.id, email: user.email, fingerprint: passwordFingerprint(user.password) }, 60_000);
    const weak = await t.request.post('/auth/password/reset').send({ token, password: WEAK_ONLY }).expect(400);
    expect(weak.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', field: 'password' });
    expect(weak.body.errors[0].message).toContain('strong password policy');
    await t.request.post('/auth/password/reset').send({ token, password: 'Reset!Str0ng' }).expect(204);
    await t.login('reset@example.com', 'Reset!Str0ng');
  });

  it('refuses an unknown policy name on settings with the allowed values', async () => {
    const response = await t.request.patch('/settings').set(auth).send({ auth_password_policy: 'medium' }).expect(400);
    expect(response.body.errors[0].extensions.field).toBe('auth_password_policy');
  });
});
