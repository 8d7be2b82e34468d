import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from '../../../server/auth/auth-service.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { fieldValue, PageBrowser } from './pages-browser.ts';

const PUBLIC_URL = 'http://cms.example.test';
/** PUBLIC_URL as a redirect's Location writes it. */
const BASE = `${PUBLIC_URL}/`;

describe('sign-in pages: credentials flow with plain HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
    await new UsersService(t.system).createOne({ email: 'suspended@example.com', password: 'suspended-pass-1', status: 'suspended' });
  });
  afterAll(() => t.close());

  it('signs in through the form, shows the session, and signs out through the sign-out page', async () => {
    const browser = new PageBrowser(t);
    const signin = await browser.get('/auth/signin?callbackUrl=%2Fadmin%2Fcontent');
    expect(signin.status).toBe(200);
    expect(signin.headers['content-type']).toMatch(/^text\/html/);
    expect(signin.headers['cache-control']).toBe('no-store');
    expect(signin.text).toContain('action="/auth/callback/credentials"');
    const csrfToken = fieldValue(signin.text, 'csrfToken');
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    expect(fieldValue(signin.text, 'callbackUrl')).toBe(`${PUBLIC_URL}/admin/content`);
    expect(browser.jar.get('tessera_csrf_token')).toBe(csrfToken);

    expect(await (await browser.get('/auth/session')).body).toEqual({});

    const posted = await browser.post('/auth/callback/credentials', { csrfToken, callbackUrl: fieldValue(signin.text, 'callbackUrl'), ...TEST_ADMIN });
    expect(posted.status).toBe(302);
    expect(posted.headers.location).toBe(`${PUBLIC_URL}/admin/content`);
    const token = browser.jar.get('tessera_session_token');
    expect(token).toBeDefined();
    expect(await t.system.db.selectFrom('tessera_sessions').select('user').where('token', '=', hashSessionToken(token!)).execute()).toHaveLength(1);

    const session = await browser.get('/auth/session');
    expect(session.status).toBe(200);
    const admin = await t.system.db.selectFrom('tessera_users').select(['id', 'email']).where('email', '=', TEST_ADMIN.email).executeTakeFirstOrThrow();
    expect(session.body).toEqual({ user: { id: admin.id, name: expect.anything(), email: TEST_ADMIN.email, image: null }, expires: expect.any(String) });
    const expires = new Date(session.body.expires).getTime() - Date.now();
    expect(expires).toBeGreaterThan(2_592_000_000 - 60_000);
    expect((await browser.get('/users/me')).body.data.email).toBe(TEST_ADMIN.email);

    const signoutPage = await browser.get('/auth/signout');
    expect(signoutPage.text).toContain('Are you sure you want to sign out?');
    const signedOut = await browser.post('/auth/signout', { csrfToken: fieldValue(signoutPage.text, 'csrfToken'), callbackUrl: fieldValue(signoutPage.text, 'callbackUrl') });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.location).toBe(BASE);
    expect(browser.jar.get('tessera_session_token')).toBeUndefined();
    expect(await t.system.db.selectFrom('tessera_sessions').select('user').where('token', '=', hashSessionToken(token!)).execute()).toHaveLength(0);
    expect((await browser.get('/auth/session')).body).toEqual({});
  });

  it('sends wrong credentials to the CredentialsSignin page (401) and sets no session', async () => {
    const browser = new PageBrowser(t);
    const csrfToken = await browser.csrfToken();
    for (const credentials of [
      { email: TEST_ADMIN.email, password: 'wrong-password' },
      { email: 'nobody@example.com', password: 'wrong-password' },
    ]) {
      const posted = await browser.post('/auth/callback/credentials', { csrfToken, ...credentials });
      expect(posted.status).toBe(302);
      expect(posted.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=CredentialsSignin`);
      expect(browser.jar.get('tessera_session_token')).toBeUndefined();
    }
    const page = await browser.get('/auth/error?error=CredentialsSignin');
    expect(page.status).toBe(401);
    expect(page.text).toContain('Sign in failed. Check the details you provided are correct.');
  });

  it('sends a user who may not sign in to the AccessDenied page', async () => {
    const browser = new PageBrowser(t);
    const posted = await browser.post('/auth/callback/credentials', { csrfToken: await browser.csrfToken(), email: 'suspended@example.com', password: 'suspended-pass-1' });
    expect(posted.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=AccessDenied`);
  });

  it('names a missing field of the credentials form with 400 INVALID_PAYLOAD', async () => {
    const browser = new PageBrowser(t);
    const response = await browser.post('/auth/callback/credentials', { csrfToken: await browser.csrfToken(), email: TEST_ADMIN.email });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'password' });
  });

  it('a GET of the credentials callback goes back to the sign-in page', async () => {
    const response = await new PageBrowser(t).get('/auth/callback/credentials');
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/auth/signin`);
  });
});

describe('CSRF protection of the page routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(() => t.close());

  it('GET /auth/csrf returns 32 random bytes and sets the double-submit cookie once', async () => {
    const browser = new PageBrowser(t);
    const first = await browser.get('/auth/csrf');
    expect(first.body).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const cookie = (first.headers['set-cookie'] as unknown as string[]).find((line) => line.startsWith('tessera_csrf_token='))!;
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    const again = await browser.get('/auth/csrf');
    expect(again.body.csrfToken).toBe(first.body.csrfToken);
    expect((await new PageBrowser(t).get('/auth/csrf')).body.csrfToken).not.toBe(first.body.csrfToken);
  });

  const posts: Array<[string, Record<string, string>]> = [
    ['/auth/callback/credentials', { ...TEST_ADMIN }],
    ['/auth/signin/email', { email: TEST_ADMIN.email }],
    ['/auth/signout', {}],
  ];

  it.each(posts)('POST %s without csrfToken is 400 naming csrfToken', async (path, fields) => {
    const browser = new PageBrowser(t);
    await browser.csrfToken();
    const response = await browser.post(path, fields);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'csrfToken' });
  });

  it.each(posts)('POST %s with a wrong csrfToken, or without the cookie, is 403', async (path, fields) => {
    const browser = new PageBrowser(t);
    const token = await browser.csrfToken();
    const wrong = await browser.post(path, { ...fields, csrfToken: 'f'.repeat(64) });
    expect(wrong.status).toBe(403);
    expect(wrong.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'csrfToken' });
    const stranger = new PageBrowser(t);
    const withoutCookie = await stranger.post(path, { ...fields, csrfToken: token });
    expect(withoutCookie.status).toBe(403);
    expect(stranger.jar.get('tessera_session_token')).toBeUndefined();
  });

  it('refuses a CSRF cookie whose signature does not match (tampered)', async () => {
    const browser = new PageBrowser(t);
    await browser.csrfToken();
    const forged = 'a'.repeat(64);
    browser.jar.set('tessera_csrf_token', forged);
    const response = await browser.post('/auth/callback/credentials', { ...TEST_ADMIN, csrfToken: forged });
    expect(response.status).toBe(403);
  });
});

describe('callbackUrl: http(s) on the same origin, else the base origin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(() => t.close());

  const cases: Array<[given: string, expected: string]> = [
    [`${PUBLIC_URL}/admin`, `${PUBLIC_URL}/admin`],
    ['/admin/settings?tab=1', `${PUBLIC_URL}/admin/settings?tab=1`],
    ['https://evil.example/phish', BASE],
    ['//evil.example/phish', BASE],
    ['/\\evil.example', BASE],
    ['javascript:alert(1)', BASE],
    ['ftp://cms.example.test/x', BASE],
    ['http://cms.example.test:8080/admin', BASE],
    ['not a url at all', BASE],
  ];

  it.each(cases)('%s after sign-in → %s', async (given, expected) => {
    const browser = new PageBrowser(t);
    const csrfToken = await browser.csrfToken();
    const response = await browser.post('/auth/callback/credentials', { csrfToken, callbackUrl: given, ...TEST_ADMIN });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(expected);
  });

  it('the sign-in page carries only a checked callbackUrl in its forms', async () => {
    const page = await new PageBrowser(t).get(`/auth/signin?callbackUrl=${encodeURIComponent('https://evil.example/')}`);
    expect(fieldValue(page.text, 'callbackUrl')).toBe(PUBLIC_URL);
  });
});

describe('the sign-in card', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(() => t.close());

  it('shows the logo and brand colour from settings, with every value escaped', async () => {
    const [file] = await t.system.db.insertInto('tessera_files').values({ storage: 'local', filename_download: 'logo.png' }).returning('id').execute();
    await t.system.db.updateTable('tessera_settings').set({ project_name: '<script>alert("x")</script> & Co', project_color: '#AA3300', project_logo: file!.id }).execute();
    const page = await t.request.get('/auth/signin').expect(200);
    expect(page.text).toContain(`src="${PUBLIC_URL}/assets/${file!.id}"`);
    expect(page.text).toContain('--brand:#AA3300');
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
  });

  it('falls back to the default colour when settings hold something that is not a colour', async () => {
    await t.system.db.updateTable('tessera_settings').set({ project_color: 'red;}</style><script>', project_logo: null }).execute();
    const page = await t.request.get('/auth/signin').expect(200);
    expect(page.text).toContain('--brand:#6644FF');
    expect(page.text).not.toContain('<img');
  });

  it('shows the public background, foreground and favicon, the descriptor and a link to the project URL', async () => {
    const images = await t.system.db
      .insertInto('tessera_files')
      .values(['bg.jpg', 'fg.png', 'icon.png'].map((name) => ({ storage: 'local', filename_download: name })))
      .returning('id')
      .execute();
    const [background, foreground, favicon] = images.map((row) => String(row.id));
    await t.system.db
      .updateTable('tessera_settings')
      .set({ project_name: 'Acme', project_descriptor: 'News & <views>', project_url: 'https://acme.example/home', public_background: background, public_foreground: foreground, public_favicon: favicon })
      .execute();
    for (const path of ['/auth/signin', '/auth/signout', '/auth/error?error=AccessDenied', '/auth/verify-request']) {
      const page = await t.request.get(path).expect((response) => expect(response.status).toBeLessThan(500));
      expect(page.text).toContain(`<body class="backdrop" style="background-image:url('${PUBLIC_URL}/assets/${background}')">`);
      expect(page.text).toContain(`<img class="foreground" src="${PUBLIC_URL}/assets/${foreground}" alt="">`);
      expect(page.text).toContain(`<link rel="icon" href="${PUBLIC_URL}/assets/${favicon}">`);
      expect(page.text).toContain('<p class="descriptor">News &amp; &lt;views&gt;</p>');
      expect(page.text).toContain('<a href="https://acme.example/home" rel="noopener">Acme</a>');
    }

    await t.system.db.updateTable('tessera_settings').set({ project_descriptor: '  ', project_url: 'javascript:alert(1)', public_background: null, public_foreground: null, public_favicon: null }).execute();
    const plain = await t.request.get('/auth/signin').expect(200);
    expect(plain.text).toContain('<body>');
    for (const absent of ['rel="icon"', 'class="foreground"', 'class="descriptor"', 'javascript:', 'class="project"']) expect(plain.text).not.toContain(absent);
  });

  it('lists credentials and the e-mail link form; /auth/providers says the same', async () => {
    const page = await t.request.get('/auth/signin').expect(200);
    expect(page.text).toContain('action="/auth/signin/email"');
    expect(page.text).toContain('action="/auth/callback/credentials"');
    const providers = await t.request.get('/auth/providers').expect(200);
    expect(providers.body).toEqual({
      credentials: { id: 'credentials', name: 'Credentials', type: 'credentials', signinUrl: `${PUBLIC_URL}/auth/signin/credentials`, callbackUrl: `${PUBLIC_URL}/auth/callback/credentials` },
      email: { id: 'email', name: 'Email', type: 'email', signinUrl: `${PUBLIC_URL}/auth/signin/email`, callbackUrl: `${PUBLIC_URL}/auth/callback/email` },
    });
  });
});

describe('the sign-in card with OpenID providers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      PUBLIC_URL,
      AUTH_PROVIDERS: 'acme',
      // Nothing listens on port 9: discovery fails, which the page flow must turn into OAuthSignin.
      AUTH_ACME_ISSUER_URL: 'http://127.0.0.1:9/',
      AUTH_ACME_CLIENT_ID: 'tessera',
      AUTH_ACME_LABEL: 'Acme <SSO>',
    });
  });
  afterAll(() => t.close());

  it('shows one escaped button per provider, posting to /auth/signin/<name>, and lists it in /auth/providers', async () => {
    const page = await t.request.get('/auth/signin').expect(200);
    expect(page.text).toContain('action="/auth/signin/acme"');
    expect(page.text).toContain('Sign in with Acme &lt;SSO&gt;');
    const providers = await t.request.get('/auth/providers').expect(200);
    expect(providers.body.acme).toEqual({ id: 'acme', name: 'Acme <SSO>', type: 'oidc', signinUrl: `${PUBLIC_URL}/auth/signin/acme`, callbackUrl: `${PUBLIC_URL}/auth/callback/acme` });
  });

  it('hands a provider button over to the OpenID flow (here: an unreachable issuer → OAuthSignin)', async () => {
    const browser = new PageBrowser(t);
    const response = await browser.post('/auth/signin/acme', { csrfToken: await browser.csrfToken(), callbackUrl: '/admin' });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=OAuthSignin`);
  });

  it('answers an unknown provider with 404 ROUTE_NOT_FOUND', async () => {
    const browser = new PageBrowser(t);
    const response = await browser.post('/auth/signin/nope', { csrfToken: await browser.csrfToken() });
    expect(response.status).toBe(404);
    expect(response.body.errors[0].extensions.code).toBe('ROUTE_NOT_FOUND');
    expect((await browser.get('/auth/callback/nope?code=x&state=y')).status).toBe(404);
  });
});
