import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetadataServer, startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { cookiesOf, deliverCallback, providerEnv, PUBLIC_URL, redirectUrisFor, type StartedSignIn } from './oidc-test-kit.ts';

describe('OpenID Connect through the sign-in pages (/auth/signin/:provider, /auth/callback/:provider)', () => {
  let provider: TestOidcProvider;
  let nopkce: { url: string; close(): Promise<void> };
  let t: TestApp;

  beforeAll(async () => {
    provider = await startOidcProvider(redirectUrisFor(['test', 'closed', 'nopkce']));
    nopkce = await startMetadataServer(provider.issuer, ({ code_challenge_methods_supported: _omitted, ...metadata }, ownUrl) => ({ ...metadata, issuer: ownUrl }));
    t = await createTestApp({
      PUBLIC_URL,
      AUTH_PROVIDERS: 'test,closed,nopkce',
      ...providerEnv('test', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true', LABEL: 'Test ID' }),
      ...providerEnv('closed', provider.issuer),
      ...providerEnv('nopkce', nopkce.url),
    });
  });
  afterAll(async () => {
    await t?.close();
    await nopkce?.close();
    await provider?.close();
  });

  /** Posts the sign-in form of `name` with a CSRF token, as the sign-in page's button does. */
  async function postSignIn(name: string, callbackUrl = `${PUBLIC_URL}/admin/content`) {
    const csrf = await t.request.get('/auth/csrf').expect(200);
    const csrfCookies = cookiesOf(csrf);
    const response = await t.request
      .post(`/auth/signin/${name}`)
      .type('form')
      .set('Cookie', csrfCookies.join('; '))
      .send({ csrfToken: csrf.body.data?.csrfToken ?? csrf.body.csrfToken, callbackUrl })
      .expect(302);
    return { response, csrfCookies };
  }

  async function startPageSignIn(name: string, callbackUrl?: string): Promise<StartedSignIn> {
    const { response } = await postSignIn(name, callbackUrl);
    return { authorizationUrl: new URL(response.headers.location!), cookies: cookiesOf(response) };
  }

  it('lists the providers with their labels', async () => {
    const response = await t.request.get('/auth/providers').expect(200);
    expect(JSON.stringify(response.body)).toContain('Test ID');
  });

  it('signs in: redirect URI /auth/callback/<name>, session cookie, then the callbackUrl', async () => {
    const { authorizationUrl, cookies } = await startPageSignIn('test');
    expect(authorizationUrl.origin).toBe(provider.issuer);
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/auth/callback/test`);
    const callback = await provider.signIn(authorizationUrl.href, 'page-user');
    expect(callback.pathname).toBe('/auth/callback/test');
    const response = await deliverCallback(t, callback, cookies).expect(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/admin/content`);
    const me = await t.request.get('/users/me').set('Cookie', cookiesOf(response).join('; ')).expect(200);
    const user = await t.system.db.selectFrom('tessera_users').select('id').where('email', '=', 'page-user@example.test').executeTakeFirstOrThrow();
    expect(me.body.data.id).toBe(user.id);
  });

  it('sends a refused identity to the error page with AccessDenied', async () => {
    const { authorizationUrl, cookies } = await startPageSignIn('closed');
    const response = await deliverCallback(t, await provider.signIn(authorizationUrl.href, 'outsider'), cookies).expect(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=AccessDenied`);
    const page = await t.request.get('/auth/error?error=AccessDenied').expect(403);
    expect(page.text).toContain('You do not have permission to sign in.');
  });

  it('passes a provider error on to the error page', async () => {
    const { authorizationUrl, cookies } = await startPageSignIn('test');
    const response = await deliverCallback(t, await provider.abort(authorizationUrl.href), cookies).expect(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=access_denied`);
  });

  it('ends server_error from the provider, and a callback without its cookies, as OAuthCallback', async () => {
    const { authorizationUrl, cookies } = await startPageSignIn('test');
    const callback = new URL(`${PUBLIC_URL}/auth/callback/test`);
    callback.search = new URLSearchParams({ error: 'server_error', state: authorizationUrl.searchParams.get('state')!, iss: provider.issuer }).toString();
    const failed = await deliverCallback(t, callback, cookies).expect(302);
    expect(failed.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=OAuthCallback`);

    const again = await startPageSignIn('test');
    const orphan = await deliverCallback(t, await provider.signIn(again.authorizationUrl.href, 'orphan'), []).expect(302);
    expect(orphan.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=OAuthCallback`);
    const page = await t.request.get('/auth/error?error=OAuthCallback');
    expect(page.text).toContain('Try signing in with a different account.');
  });

  it('sends an issuer without PKCE support to the error page with OAuthSignin, setting no cookies', async () => {
    const { response } = await postSignIn('nopkce');
    expect(response.headers.location).toBe(`${PUBLIC_URL}/auth/error?error=OAuthSignin`);
    expect(cookiesOf(response).filter((cookie) => cookie.startsWith('tessera_oidc_'))).toEqual([]);
  });
});
