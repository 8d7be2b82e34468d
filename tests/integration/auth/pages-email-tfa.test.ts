import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION_TOKENS_TABLE } from '../../../migrations/20261121000002-auth-verification-tokens.ts';
import { deriveKey } from '../../../server/auth/secret-keys.ts';
import { newTotpSecret } from '../../../server/auth/tfa-otp.ts';
import { encryptTfaSecret } from '../../../server/auth/tfa-secret-crypto.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { linkIn, startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { fieldValue, PageBrowser } from './pages-browser.ts';

const PUBLIC_URL = 'http://cms.example.test';
const EMAIL = 'two-factor@example.com';

describe('sign-in pages: an e-mail link does not skip two-factor authentication', () => {
  let ses: SesEmulator;
  let t: TestApp;
  let userId: string;
  let secret: string;

  beforeAll(async () => {
    ses = await startSesEmulator();
    t = await createTestApp({ ...ses.env, PUBLIC_URL });
    userId = await new UsersService(t.system).createOne({ email: EMAIL, password: 'two-factor-pass-1' });
    // TFA on, as /users/me/tfa/enable leaves it (no code used yet, so the current one signs in once).
    secret = newTotpSecret();
    await t.system.db.updateTable('tessera_users').set({ tfa_secret: encryptTfaSecret(secret, deriveKey(t.context.config.secret, 'tfa-secret'), userId) }).where('id', '=', userId).execute();
  });
  afterAll(async () => {
    await t.close();
    await ses.close();
  });

  async function requestLink(browser: PageBrowser): Promise<URL> {
    const before = (await ses.emailsTo(EMAIL)).length;
    await browser.post('/auth/signin/email', { csrfToken: await browser.csrfToken(), email: EMAIL, callbackUrl: '/admin/content' });
    return linkIn((await ses.waitForEmails(EMAIL, before + 1)).at(-1)!);
  }

  async function sessionsOfUser(): Promise<number> {
    const row = await t.system.db.selectFrom('tessera_sessions').select((eb) => eb.fn.countAll<string>().as('count')).where('user', '=', userId).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function wrongCode(): Promise<string> {
    return String((Number(await generate({ secret })) + 500_000) % 1_000_000).padStart(6, '0');
  }

  it('opens a card asking for the code, with no session; a wrong or missing code is 401 INVALID_OTP; the right one signs in', async () => {
    const browser = new PageBrowser(t);
    const link = await requestLink(browser);

    const opened = await browser.get(link.pathname + link.search);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('name="otp"');
    expect(browser.jar.get('tessera_session_token')).toBeUndefined();
    expect(await sessionsOfUser()).toBe(0);
    expect(await t.system.db.selectFrom(VERIFICATION_TOKENS_TABLE).select('token').where('identifier', '=', EMAIL).execute()).toHaveLength(1);

    const form = {
      csrfToken: fieldValue(opened.text, 'csrfToken'),
      token: fieldValue(opened.text, 'token'),
      email: fieldValue(opened.text, 'email'),
      callbackUrl: fieldValue(opened.text, 'callbackUrl'),
    };
    const post = (fields: Record<string, string>, accept = 'application/json') =>
      t.request.post('/auth/callback/email').set('Cookie', browser.jar.header()).set('Accept', accept).type('form').send(fields).redirects(0);

    const wrong = await post({ ...form, otp: await wrongCode() });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].extensions.code).toBe('INVALID_OTP');
    const missing = await post(form);
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'INVALID_OTP', field: 'otp' });
    const inBrowser = await post({ ...form, otp: await wrongCode() }, 'text/html');
    expect(inBrowser.status).toBe(401);
    expect(inBrowser.text).toContain('data-code="INVALID_OTP"');
    const noCsrf = await post({ ...form, csrfToken: '', otp: await generate({ secret }) });
    expect(noCsrf.status).toBe(400);
    expect(noCsrf.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'csrfToken' });
    const shaped = await t.request.post('/auth/callback/email').set('Cookie', browser.jar.header()).type('form').send(`${new URLSearchParams(form)}&otp[a]=1`).redirects(0);
    expect(shaped.status).toBe(400);
    expect(shaped.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'otp' });
    expect(await sessionsOfUser()).toBe(0);

    const signedIn = await browser.post('/auth/callback/email', { ...form, otp: await generate({ secret }) });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.location).toBe(`${PUBLIC_URL}/admin/content`);
    expect(browser.jar.get('tessera_session_token')).toBeDefined();
    expect((await browser.get('/auth/session')).body.user.email).toBe(EMAIL);
    expect(await sessionsOfUser()).toBe(1);

    // The link is used up now; so is the code.
    const replay = await new PageBrowser(t).get(link.pathname + link.search);
    expect(replay.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=Verification`);
  });

  it('a user without TFA is still signed in by the link alone', async () => {
    const plain = 'no-factor@example.com';
    await new UsersService(t.system).createOne({ email: plain, password: 'no-factor-pass-1' });
    const browser = new PageBrowser(t);
    await browser.post('/auth/signin/email', { csrfToken: await browser.csrfToken(), email: plain, callbackUrl: '/admin' });
    const link = linkIn((await ses.waitForEmails(plain, 1)).at(-1)!);
    const opened = await browser.get(link.pathname + link.search);
    expect(opened.status).toBe(302);
    expect(browser.jar.get('tessera_session_token')).toBeDefined();
  });
});
