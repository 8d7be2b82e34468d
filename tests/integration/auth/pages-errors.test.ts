import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** SPEC §8, word for word: code → status and every text the page must show. */
const CATALOGUE: Array<[code: string, status: number, texts: string[]]> = [
  ['configuration', 500, ['Server error', 'There is a problem with the server configuration.']],
  ['Configuration', 500, ['Server error', 'There is a problem with the server configuration.']],
  ['AccessDenied', 403, ['You do not have permission to sign in.']],
  ['Verification', 403, ['Unable to sign in', 'The sign in link is no longer valid.', 'It may have been used already or it may have expired.']],
  ['OAuthAccountNotLinked', 403, ['To confirm your identity, sign in with the same account you used originally.']],
  ['EmailSignin', 500, ['The e-mail could not be sent.']],
  ['CredentialsSignin', 401, ['Sign in failed. Check the details you provided are correct.']],
  ['SessionRequired', 401, ['Please sign in to access this page.']],
  ['OAuthSignin', 400, ['Try signing in with a different account.']],
  ['OAuthCallback', 400, ['Try signing in with a different account.']],
  ['OAuthCreateAccount', 400, ['Try signing in with a different account.']],
  ['EmailCreateAccount', 400, ['Try signing in with a different account.']],
  ['Callback', 400, ['Try signing in with a different account.']],
  ['default', 400, ['Unable to sign in.']],
];

describe('GET /auth/error', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(CATALOGUE)('?error=%s answers %i with the SPEC §8 texts', async (code, status, texts) => {
    const response = await t.request.get(`/auth/error?error=${code}`).expect(status);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    for (const text of texts) expect(response.text).toContain(text);
    expect(response.text).toContain('href="/auth/signin"');
  });

  it('answers an unknown or missing code with the default page', async () => {
    for (const path of ['/auth/error?error=NoSuchCode', '/auth/error', '/auth/error?error=toString', '/auth/error?error=a&error=b']) {
      const response = await t.request.get(path).expect(400);
      expect(response.text).toContain('Unable to sign in.');
      expect(response.text).not.toContain('NoSuchCode');
    }
  });

  it('never reflects the code into the page', async () => {
    const response = await t.request.get(`/auth/error?error=${encodeURIComponent('<script>alert(1)</script>')}`).expect(400);
    expect(response.text).not.toContain('<script>');
  });

  it('shows the verify-request texts', async () => {
    const response = await t.request.get('/auth/verify-request').expect(200);
    expect(response.text).toContain('Check your email');
    expect(response.text).toContain('A sign in link has been sent to your email address.');
  });
});
