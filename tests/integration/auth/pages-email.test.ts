import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION_TOKENS_TABLE } from '../../../migrations/20261121000002-auth-verification-tokens.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { linkIn, startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { PageBrowser } from './pages-browser.ts';

const PUBLIC_URL = 'http://cms.example.test';

describe('sign-in pages: e-mail link flow (SES emulator)', () => {
  let ses: SesEmulator;
  let t: TestApp;
  beforeAll(async () => {
    ses = await startSesEmulator();
    t = await createTestApp({ ...ses.env, PUBLIC_URL });
    await new UsersService(t.system).createOne({ email: 'inactive@example.com', password: 'inactive-pass-1', status: 'suspended' });
  });
  afterAll(async () => {
    await t.close();
    await ses.close();
  });

  /** Requests a link through the sign-in page's e-mail form and returns the link from the mail. */
  async function requestLink(browser: PageBrowser, email: string, callbackUrl: string): Promise<URL> {
    const before = (await ses.emailsTo(email)).length;
    const response = await browser.post('/auth/signin/email', { csrfToken: await browser.csrfToken(), email, callbackUrl });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/auth/verify-request?provider=email&type=email`);
    const mails = await ses.waitForEmails(email, before + 1);
    expect(mails).toHaveLength(before + 1);
    return linkIn(mails.at(-1)!);
  }

  it('mails a link that signs the browser in once, with the session cookie, then lands on callbackUrl', async () => {
    const browser = new PageBrowser(t);
    const link = await requestLink(browser, TEST_ADMIN.email, '/admin/content');
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toBe('/auth/callback/email');

    const opened = await browser.get(link.pathname + link.search);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe(`${PUBLIC_URL}/admin/content`);
    expect(browser.jar.get('tessera_session_token')).toBeDefined();
    const session = await browser.get('/auth/session');
    expect(session.body.user.email).toBe(TEST_ADMIN.email);

    const again = new PageBrowser(t);
    const replay = await again.get(link.pathname + link.search);
    expect(replay.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=Verification`);
    expect(again.jar.get('tessera_session_token')).toBeUndefined();
    const page = await again.get('/auth/error?error=Verification');
    expect(page.status).toBe(403);
    expect(page.text).toContain('The sign in link is no longer valid.');
  });

  it('refuses an expired link and a tampered token with the Verification page', async () => {
    const browser = new PageBrowser(t);
    const link = await requestLink(browser, TEST_ADMIN.email, PUBLIC_URL);
    const tampered = new URL(link);
    tampered.searchParams.set('token', `${link.searchParams.get('token')!.slice(0, -2)}zz`);
    expect((await browser.get(tampered.pathname + tampered.search)).headers.location).toBe(`${PUBLIC_URL}/auth/error?error=Verification`);

    await t.system.db.updateTable(VERIFICATION_TOKENS_TABLE).set({ expires: new Date(Date.now() - 1000) }).execute();
    const expired = await browser.get(link.pathname + link.search);
    expect(expired.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=Verification`);
    expect(browser.jar.get('tessera_session_token')).toBeUndefined();
    expect((await browser.get('/auth/error?error=Verification')).status).toBe(403);
  });

  it('sends nothing to unknown or inactive addresses, yet answers the same', async () => {
    for (const email of ['nobody@example.com', 'inactive@example.com']) {
      const browser = new PageBrowser(t);
      const response = await browser.post('/auth/signin/email', { csrfToken: await browser.csrfToken(), email });
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe(`${PUBLIC_URL}/auth/verify-request?provider=email&type=email`);
      expect(await ses.emailsTo(email)).toHaveLength(0);
    }
  });

  it('keeps a foreign callbackUrl out of the link', async () => {
    const link = await requestLink(new PageBrowser(t), TEST_ADMIN.email, 'https://evil.example/');
    expect(link.searchParams.get('callbackUrl')).toBe(PUBLIC_URL);
    const opened = await new PageBrowser(t).get(link.pathname + link.search);
    expect(opened.headers.location).toBe(`${PUBLIC_URL}/`);
  });

  it('names a malformed e-mail with 400 INVALID_PAYLOAD', async () => {
    const browser = new PageBrowser(t);
    const response = await browser.post('/auth/signin/email', { csrfToken: await browser.csrfToken(), email: 'not-an-email' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'email' });
  });
});

describe('sign-in pages: e-mail that cannot be sent', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 9 (discard) on the loopback refuses connections: the transport fails at once.
    t = await createTestApp({
      PUBLIC_URL,
      EMAIL_TRANSPORT: 'ses',
      EMAIL_SES_ENDPOINT: 'http://127.0.0.1:9',
      EMAIL_SES_ACCESS_KEY_ID: 'test',
      EMAIL_SES_SECRET_ACCESS_KEY: 'test',
    });
  });
  afterAll(() => t.close());

  it('shows the EmailSignin page', async () => {
    const browser = new PageBrowser(t);
    const response = await browser.post('/auth/signin/email', { csrfToken: await browser.csrfToken(), email: TEST_ADMIN.email });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=EmailSignin`);
    const page = await browser.get('/auth/error?error=EmailSignin');
    expect(page.text).toContain('The e-mail could not be sent.');
  });
});
