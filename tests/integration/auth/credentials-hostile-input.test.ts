import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { PageBrowser } from './pages-browser.ts';

/** Values of the wrong type, or too long, for a string credential. */
const HOSTILE = [{}, { $ne: null }, [], ['a@example.com'], 123, true, 'x'.repeat(100_000)];

function expectNamedField(response: { status: number; body: { errors?: Array<{ message: string; extensions: Record<string, unknown> }> } }, field: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  const error = response.body.errors![0]!;
  expect(error.extensions.code).toBe('INVALID_PAYLOAD');
  expect(error.extensions.field).toBe(field);
  expect(error.message).toContain(field);
}

describe('sign-in routes refuse non-string and oversized credentials with 400 naming the field', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://cms.example.test' });
  });
  afterAll(() => t.close());

  it('POST /auth/login: email, password, otp and mode', async () => {
    for (const value of HOSTILE) {
      expectNamedField(await t.request.post('/auth/login').send({ email: value, password: TEST_ADMIN.password }), 'email');
      expectNamedField(await t.request.post('/auth/login').send({ email: TEST_ADMIN.email, password: value }), 'password');
      expectNamedField(await t.request.post('/auth/login').send({ ...TEST_ADMIN, otp: value }), 'otp');
      expectNamedField(await t.request.post('/auth/login').send({ ...TEST_ADMIN, mode: value }), 'mode');
    }
    // A password that is a number is not the string the user chose: no silent cast.
    const numeric = await t.request.post('/auth/login').send({ email: TEST_ADMIN.email, password: 12345678 });
    expect(numeric.body.errors[0].message).toBe('Invalid payload. "password" must be a string.');
    // The right credentials still work.
    await t.request.post('/auth/login').send(TEST_ADMIN).expect(200);
  });

  it('POST /auth/refresh and /auth/logout: refresh_token and mode', async () => {
    for (const value of HOSTILE) {
      for (const route of ['/auth/refresh', '/auth/logout']) {
        expectNamedField(await t.request.post(route).send({ refresh_token: value }), 'refresh_token');
        expectNamedField(await t.request.post(route).send({ refresh_token: 'x', mode: value }), 'mode');
      }
    }
  });

  it('POST /auth/password/request and /auth/password/reset', async () => {
    for (const value of HOSTILE) {
      expectNamedField(await t.request.post('/auth/password/request').send({ email: value }), 'email');
      expectNamedField(await t.request.post('/auth/password/request').send({ email: 'a@example.com', reset_url: value }), 'reset_url');
      expectNamedField(await t.request.post('/auth/password/reset').send({ token: value, password: 'new-password-1' }), 'token');
      expectNamedField(await t.request.post('/auth/password/reset').send({ token: 'x', password: value }), 'password');
    }
  });

  it('POST /users/me/tfa/*: password, secret, otp', async () => {
    const auth = { Authorization: `Bearer ${await t.login()}` };
    for (const value of HOSTILE) {
      expectNamedField(await t.request.post('/users/me/tfa/generate').set(auth).send({ password: value }), 'password');
      expectNamedField(await t.request.post('/users/me/tfa/enable').set(auth).send({ secret: value, otp: '123456' }), 'secret');
      expectNamedField(await t.request.post('/users/me/tfa/enable').set(auth).send({ secret: 'A'.repeat(32), otp: value }), 'otp');
      expectNamedField(await t.request.post('/users/me/tfa/disable').set(auth).send({ otp: value }), 'otp');
    }
  });

  it('the sign-in pages: bracketed form fields (email[a]=1) are 400 naming the field', async () => {
    const browser = new PageBrowser(t);
    const csrfToken = await browser.csrfToken();
    const cookie = browser.jar.header();
    for (const [path, body] of [
      ['/auth/callback/credentials', `csrfToken=${csrfToken}&email[a]=1&password=x`],
      ['/auth/callback/credentials', `csrfToken=${csrfToken}&email[]=a%40example.com&email[]=b%40example.com&password=x`],
      ['/auth/signin/email', `csrfToken=${csrfToken}&email[a]=1`],
    ] as const) {
      expectNamedField(await t.request.post(path).set('Cookie', cookie).type('form').send(body), 'email');
    }
    expectNamedField(await t.request.post('/auth/callback/credentials').set('Cookie', cookie).type('form').send(`csrfToken=${csrfToken}&email=a%40example.com&password[x]=1`), 'password');
  });

  it('GET /auth/login/:provider: odd provider names and redirect values are 4xx, never 500', async () => {
    for (const path of [
      '/auth/login/%E0%A4%A',
      '/auth/login/' + 'p'.repeat(5000),
      '/auth/login/nobody?redirect[a]=1',
      '/auth/login/nobody/callback?code[a]=1&state[]=x',
      '/auth/login/%00',
    ]) {
      const response = await t.request.get(path).redirects(0);
      expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
    }
  });
});
