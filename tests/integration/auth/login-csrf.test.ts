import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { PageBrowser } from './pages-browser.ts';

const PUBLIC_URL = 'http://cms.example.test';
const EVIL = 'https://evil.example';

describe('login CSRF: cross-site form posts to /auth/login and /auth/refresh sign nobody in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(() => t.close());

  const sessions = async () => Number((await t.system.db.selectFrom('tessera_sessions').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const form = { ...TEST_ADMIN, mode: 'session' };

  function expectRefused(response: { status: number; headers: Record<string, unknown>; body: { errors: Array<{ extensions: Record<string, unknown> }> } }): void {
    expect(response.status).toBe(403);
    expect(response.body.errors[0]!.extensions).toEqual({ code: 'FORBIDDEN', field: 'csrfToken' });
    expect(response.headers['set-cookie']).toBeUndefined();
  }

  it('refuses form, multipart and text/plain credential posts from another site or with no origin at all', async () => {
    const before = await sessions();
    expectRefused(await t.request.post('/auth/login').type('form').send(form));
    expectRefused(await t.request.post('/auth/login').set('Origin', EVIL).type('form').send(form));
    expectRefused(await t.request.post('/auth/login').set('Origin', 'null').type('form').send(form));
    expectRefused(await t.request.post('/auth/login').set('Referer', `${EVIL}/attack.html`).type('form').send(form));
    // An Origin wins over a Referer, so a forged-looking Referer cannot launder a foreign Origin.
    expectRefused(await t.request.post('/auth/login').set('Origin', EVIL).set('Referer', `${PUBLIC_URL}/admin`).type('form').send(form));
    expectRefused(await t.request.post('/auth/login').set('Origin', EVIL).field('email', TEST_ADMIN.email).field('password', TEST_ADMIN.password).field('mode', 'session'));
    expectRefused(await t.request.post('/auth/login').set('Origin', EVIL).set('Content-Type', 'text/plain').send(JSON.stringify(form)));
    // A csrfToken that matches no cookie does not help.
    expectRefused(await t.request.post('/auth/login').set('Origin', EVIL).type('form').send({ ...form, csrfToken: 'a'.repeat(64) }));
    expect(await sessions()).toBe(before);
  });

  it('refuses a cross-site form post of a refresh token in session mode (it would set the attacker\'s session)', async () => {
    const { refresh_token } = (await t.request.post('/auth/login').send(TEST_ADMIN).expect(200)).body.data;
    expectRefused(await t.request.post('/auth/refresh').set('Origin', EVIL).type('form').send({ refresh_token, mode: 'session' }));
    // The token was not used up: the owner can still refresh with it.
    await t.request.post('/auth/refresh').send({ refresh_token }).expect(200);
  });

  it('accepts form posts from this site (Origin or Referer), and with the sign-in pages\' csrfToken', async () => {
    const own = await t.request.post('/auth/login').set('Origin', PUBLIC_URL).type('form').send(form).expect(200);
    expect(String(own.headers['set-cookie'])).toContain('tessera_session_token=');
    await t.request.post('/auth/login').set('Referer', `${PUBLIC_URL}/admin/login`).type('form').send(form).expect(200);
    // The request's own host counts as this site too (PUBLIC_URL may name a proxy's address).
    const host = await t.request.post('/auth/login').type('form').send(form).set('Host', 'localhost:8055').set('Origin', 'http://localhost:8055');
    expect(host.status).toBe(200);

    const browser = new PageBrowser(t);
    const csrfToken = await browser.csrfToken();
    const posted = await browser.post('/auth/login', { ...form, csrfToken });
    expect(posted.status).toBe(200);
    expect(browser.jar.get('tessera_session_token')).toBeDefined();
  });

  it('keeps JSON sign-in working from any origin (the SDK; CORS decides what a browser may send)', async () => {
    const response = await t.request.post('/auth/login').set('Origin', EVIL).send(TEST_ADMIN).expect(200);
    expect(response.body.data.access_token).toEqual(expect.any(String));
    await t.request.post('/auth/refresh').set('Origin', EVIL).send({ refresh_token: response.body.data.refresh_token }).expect(200);
  });

  it('leaves the sign-in pages\' own form posts working', async () => {
    const browser = new PageBrowser(t);
    const csrfToken = await browser.csrfToken();
    const posted = await browser.post('/auth/callback/credentials', { csrfToken, ...TEST_ADMIN });
    expect(posted.status).toBe(302);
    expect(browser.jar.get('tessera_session_token')).toBeDefined();
  });
});
