import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashSessionToken } from '../../../server/auth/auth-service.ts';
import { signEmailToken } from '../../../server/auth/email-tokens.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { linkIn, startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PUBLIC_URL = 'http://tessera.test';

describe('password reset by e-mail (SES)', () => {
  let ses: SesEmulator;
  let t: TestApp;

  beforeAll(async () => {
    ses = await startSesEmulator();
    t = await createTestApp({ ...ses.env, PUBLIC_URL, PASSWORD_RESET_URL_ALLOW_LIST: 'https://app.example.com/reset, https://app.example.com/other' });
    const users = new UsersService(t.system);
    await users.createOne({ email: 'reader@example.com', password: 'first-password' });
    await users.createOne({ email: 'suspended@example.com', password: 'first-password', status: 'suspended' });
  });
  afterAll(async () => {
    await t.close();
    await ses.close();
  });
  beforeEach(async () => {
    await t.system.db.updateTable('tessera_settings').set({ auth_password_policy: 'none' }).execute();
  });

  async function requestAndReadLink(email: string, body: Record<string, unknown> = {}): Promise<URL> {
    const before = (await ses.emailsTo(email)).length;
    await t.request.post('/auth/password/request').send({ email, ...body }).expect(204);
    const mails = await ses.waitForEmails(email, before + 1);
    expect(mails).toHaveLength(before + 1);
    return linkIn(mails.at(-1)!);
  }

  it('request → mail → token from the mail → reset → sign in with the new password → replay refused', async () => {
    const login = await t.request.post('/auth/login').send({ email: 'reader@example.com', password: 'first-password' }).expect(200);

    const response = await t.request.post('/auth/password/request').send({ email: '  Reader@Example.com ' }).expect(204);
    expect(response.text).toBe('');
    const [mail] = await ses.waitForEmails('reader@example.com');
    expect(mail).toMatchObject({ from: 'Tessera <no-reply@tessera.test>', subject: 'Reset your Tessera password' });
    expect(mail!.body.html).toContain('Choose a new password');
    const link = linkIn(mail!);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/admin/reset-password`);
    const token = link.searchParams.get('token')!;
    expect(mail!.body.html).toContain(`token=${token}`);

    await t.request.post('/auth/password/reset').send({ token, password: 'second-password' }).expect(204);
    await t.request.post('/auth/login').send({ email: 'reader@example.com', password: 'second-password' }).expect(200);
    const old = await t.request.post('/auth/login').send({ email: 'reader@example.com', password: 'first-password' }).expect(401);
    expect(old.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');

    const replay = await t.request.post('/auth/password/reset').send({ token, password: 'third-password' }).expect(401);
    expect(replay.body.errors[0]).toMatchObject({ message: 'The link is invalid or has been used already.', extensions: { code: 'INVALID_TOKEN', field: 'token' } });
    await t.request.post('/auth/login').send({ email: 'reader@example.com', password: 'second-password' }).expect(200);

    // The sessions that existed before the reset are gone.
    const oldSession = await t.system.db.selectFrom('tessera_sessions').select('token').where('token', '=', hashSessionToken(login.body.data.refresh_token)).execute();
    expect(oldSession).toHaveLength(0);
    await t.request.post('/auth/refresh').send({ refresh_token: login.body.data.refresh_token }).expect(401);
  });

  it('makes every earlier reset link worthless once the password changes', async () => {
    const first = (await requestAndReadLink('reader@example.com')).searchParams.get('token')!;
    const second = (await requestAndReadLink('reader@example.com')).searchParams.get('token')!;
    await t.request.post('/auth/password/reset').send({ token: second, password: 'fourth-password' }).expect(204);
    const stale = await t.request.post('/auth/password/reset').send({ token: first, password: 'fifth-password' }).expect(401);
    expect(stale.body.errors[0].extensions).toMatchObject({ code: 'INVALID_TOKEN', field: 'token' });
  });

  it('answers unknown and inactive addresses with the same 204 and sends nothing', async () => {
    await ses.clear();
    const unknown = await t.request.post('/auth/password/request').send({ email: 'nobody@example.com' }).expect(204);
    const suspended = await t.request.post('/auth/password/request').send({ email: 'suspended@example.com' }).expect(204);
    const known = await t.request.post('/auth/password/request').send({ email: 'reader@example.com' }).expect(204);
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
    expect([unknown.text, suspended.text]).toEqual([known.text, known.text]);
    await t.context.mailer.idle();
    const mails = await ses.emails();
    expect(mails.map((mail) => mail.destination.to)).toEqual([['reader@example.com']]);
  });

  it('uses reset_url only when it is in the allow-list, else 400 naming reset_url', async () => {
    const link = await requestAndReadLink('reader@example.com', { reset_url: 'https://app.example.com/reset/?lang=pt' });
    expect(`${link.origin}${link.pathname}`).toBe('https://app.example.com/reset/');
    expect(link.searchParams.get('lang')).toBe('pt');
    expect(link.searchParams.get('token')).toBeTruthy();

    await ses.clear();
    for (const reset_url of ['https://evil.example.com/reset', 'https://app.example.com/reset/more', 'javascript:alert(1)', 'not a url']) {
      const refused = await t.request.post('/auth/password/request').send({ email: 'reader@example.com', reset_url }).expect(400);
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'reset_url' });
    }
    // Refused even for unknown addresses, so the check reveals nothing.
    await t.request.post('/auth/password/request').send({ email: 'nobody@example.com', reset_url: 'https://evil.example.com/reset' }).expect(400);
    await t.context.mailer.idle();
    expect(await ses.emails()).toHaveLength(0);
  });

  it('applies the password policy to the new password and keeps the link usable after a refusal', async () => {
    await t.system.db.updateTable('tessera_settings').set({ auth_password_policy: 'strong' }).execute();
    const token = (await requestAndReadLink('reader@example.com')).searchParams.get('token')!;
    const weak = await t.request.post('/auth/password/reset').send({ token, password: 'weakpassword' }).expect(400);
    expect(weak.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'password' });
    await t.request.post('/auth/password/reset').send({ token, password: 'Str0ng!Passw0rd' }).expect(204);
    await t.request.post('/auth/login').send({ email: 'reader@example.com', password: 'Str0ng!Passw0rd' }).expect(200);
  });

  it('refuses expired, tampered and other-purpose tokens with 401 naming token', async () => {
    const user = await t.system.db.selectFrom('tessera_users').select(['id', 'email', 'password']).where('email', '=', 'reader@example.com').executeTakeFirstOrThrow();
    const secret = t.context.config.secret;
    const { passwordFingerprint } = await import('../../../server/auth/email-tokens.ts');
    const claims = { userId: user.id, email: user.email, fingerprint: passwordFingerprint(user.password) };

    const expired = await signEmailToken(secret, 'password-reset', claims, -1000);
    const late = await t.request.post('/auth/password/reset').send({ token: expired, password: 'whatever-pass' }).expect(401);
    expect(late.body.errors[0].extensions).toMatchObject({ code: 'TOKEN_EXPIRED', field: 'token' });

    const valid = await signEmailToken(secret, 'password-reset', claims, 60_000);
    const tampered = `${valid.slice(0, -4)}AAAA`;
    const bad = await t.request.post('/auth/password/reset').send({ token: tampered, password: 'whatever-pass' }).expect(401);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'INVALID_TOKEN', field: 'token' });

    const invite = await signEmailToken(secret, 'invite', claims, 60_000);
    const wrongPurpose = await t.request.post('/auth/password/reset').send({ token: invite, password: 'whatever-pass' }).expect(401);
    expect(wrongPurpose.body.errors[0].extensions).toMatchObject({ code: 'INVALID_TOKEN', field: 'token' });

    const foreign = await signEmailToken('another-secret-that-is-long-enough-0123456789', 'password-reset', claims, 60_000);
    await t.request.post('/auth/password/reset').send({ token: foreign, password: 'whatever-pass' }).expect(401);
  });

  it('names the missing or malformed field with 400 INVALID_PAYLOAD', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/auth/password/request', {}, 'email'],
      ['/auth/password/request', { email: 'not-an-email' }, 'email'],
      ['/auth/password/request', { email: { $ne: null } }, 'email'],
      ['/auth/password/request', { email: 'reader@example.com', reset_url: 42 }, 'reset_url'],
      ['/auth/password/reset', { password: 'x-password' }, 'token'],
      ['/auth/password/reset', { token: 'abc' }, 'password'],
      ['/auth/password/reset', { token: ['abc'], password: 'x-password' }, 'token'],
    ];
    for (const [path, body, field] of cases) {
      const response = await t.request.post(path).send(body).expect(400);
      expect(response.body.errors[0].extensions, `${path} ${JSON.stringify(body)}`).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
    const notJson = await t.request.post('/auth/password/request').send([1, 2]).expect(400);
    expect(notJson.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
  });

  it('still answers 204 when the mail cannot be sent: a transport failure reveals nothing', async () => {
    await ses.close();
    try {
      await t.request.post('/auth/password/request').send({ email: 'reader@example.com' }).expect(204);
      await t.context.mailer.idle();
    } finally {
      ses = await startSesEmulator();
    }
  });
});
