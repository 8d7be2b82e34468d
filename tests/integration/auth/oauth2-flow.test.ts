import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { cookiesOf, deliverCallback, PUBLIC_URL, redirectUrisFor, setCookieHeader, startSignIn } from './oidc-test-kit.ts';

/**
 * The OAuth 2.0 driver against a real authorization server (oidc-provider), configured by its endpoints
 * only: no discovery, the profile read from the user-info URL.
 */
function oauth2Env(name: string, issuer: string, extra: Record<string, string> = {}): Record<string, string> {
  const prefix = `AUTH_${name.toUpperCase()}_`;
  const env: Record<string, string> = {
    [`${prefix}DRIVER`]: 'oauth2',
    [`${prefix}CLIENT_ID`]: 'tessera-test',
    [`${prefix}CLIENT_SECRET`]: 'tessera-test-secret',
    [`${prefix}AUTHORIZE_URL`]: `${issuer}/auth`,
    [`${prefix}ACCESS_URL`]: `${issuer}/token`,
    [`${prefix}PROFILE_URL`]: `${issuer}/me`,
    // oidc-provider's user-info endpoint answers access tokens with the openid scope only.
    [`${prefix}SCOPE`]: 'openid email profile',
    [`${prefix}IDENTIFIER_KEY`]: 'sub',
    [`${prefix}FIRST_NAME_KEY`]: 'given_name',
    [`${prefix}LAST_NAME_KEY`]: 'family_name',
  };
  for (const [suffix, value] of Object.entries(extra)) env[`${prefix}${suffix}`] = value;
  return env;
}

describe('OAuth 2.0 sign-in (AUTH_<NAME>_DRIVER=oauth2)', () => {
  let provider: TestOidcProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await startOidcProvider(redirectUrisFor(['hub', 'closed']));
    t = await createTestApp({
      PUBLIC_URL,
      AUTH_PROVIDERS: 'hub,closed',
      ...oauth2Env('hub', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true', LABEL: 'Hub', ICON: 'github' }),
      ...oauth2Env('closed', provider.issuer),
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  it('redirects to AUTHORIZE_URL with the code flow, state and S256 PKCE, keeping them in the encrypted cookies', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/hub');
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${provider.issuer}/auth`);
    const params = authorizationUrl.searchParams;
    expect(Object.fromEntries(params)).toMatchObject({ response_type: 'code', client_id: 'tessera-test', redirect_uri: `${PUBLIC_URL}/auth/login/hub/callback`, scope: 'openid email profile', code_challenge_method: 'S256' });
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{43}$/);
    expect(params.has('nonce')).toBe(false);
    expect(cookies.map((cookie) => cookie.split('=')[0]).sort()).toEqual(['tessera_oidc_nonce', 'tessera_oidc_pkce', 'tessera_oidc_state']);
    for (const cookie of cookies) expect(cookie).not.toContain(params.get('state')!);
  });

  it('completes the flow: exchanges the code, reads the profile, creates the linked user, starts a session', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, `/auth/login/hub?redirect=${encodeURIComponent('/admin/content')}`);
    const response = await deliverCallback(t, await provider.signIn(authorizationUrl.href, 'octo'), cookies).expect(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/admin/content`);
    for (const name of ['tessera_oidc_state', 'tessera_oidc_pkce', 'tessera_oidc_nonce']) expect(setCookieHeader(response, name)).toMatch(/expires=Thu, 01 Jan 1970/i);
    const me = await t.request.get('/users/me').set('Cookie', cookiesOf(response).join('; ')).expect(200);
    const user = await t.system.db.selectFrom('tessera_users').selectAll().where('id', '=', me.body.data.id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ provider: 'hub', external_identifier: 'octo', email: 'octo@example.test', first_name: 'User', last_name: 'octo', status: 'active' });
    const authData = user.auth_data as { profile: Record<string, unknown>; refresh_token?: string };
    expect(authData.profile).toMatchObject({ sub: 'octo', email: 'octo@example.test' });
    expect(Object.keys(authData.profile).some((key) => /token/i.test(key))).toBe(false);
    expect(JSON.stringify(me.body)).not.toContain(authData.refresh_token ?? 'no-refresh-token');
  });

  it('signs in through the sign-in pages too (/auth/signin/<name> → /auth/callback/<name>)', async () => {
    const csrf = await t.request.get('/auth/csrf').expect(200);
    const start = await t.request
      .post('/auth/signin/hub')
      .type('form')
      .set('Cookie', cookiesOf(csrf).join('; '))
      .send({ csrfToken: csrf.body.csrfToken, callbackUrl: `${PUBLIC_URL}/admin/users` })
      .expect(302);
    const authorizationUrl = new URL(start.headers.location!);
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/auth/callback/hub`);
    const response = await deliverCallback(t, await provider.signIn(authorizationUrl.href, 'pages'), cookiesOf(start)).expect(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/admin/users`);
  });

  it('refuses a callback whose state does not match', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/hub');
    const callback = await provider.signIn(authorizationUrl.href, 'forged');
    callback.searchParams.set('state', 'another-state');
    const response = await deliverCallback(t, callback, cookies).expect(401);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_CREDENTIALS', reason: 'OAuthCallback' });
    expect(response.body.errors[0].message).toContain('state');
  });

  it('sends the PKCE verifier: another sign-in\'s verifier makes the provider refuse the code', async () => {
    const first = await startSignIn(t, '/auth/login/hub');
    const second = await startSignIn(t, '/auth/login/hub');
    const swapped = first.cookies.map((cookie) => (cookie.startsWith('tessera_oidc_pkce=') ? second.cookies.find((other) => other.startsWith('tessera_oidc_pkce='))! : cookie));
    const response = await deliverCallback(t, await provider.signIn(first.authorizationUrl.href, 'pkce'), swapped).expect(401);
    expect(response.body.errors[0].extensions.reason).toBe('OAuthCallback');
    expect(response.body.errors[0].message).toMatch(/invalid_grant/);
  });

  it('uses a code once: replaying the callback fails', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/hub');
    const callback = await provider.signIn(authorizationUrl.href, 'replay');
    await deliverCallback(t, callback, cookies).expect(302);
    const replay = await deliverCallback(t, callback, cookies).expect(401);
    expect(replay.body.errors[0].extensions.reason).toBe('OAuthCallback');
  });

  it('refuses a callback without the request cookies with SPEC §8\'s message', async () => {
    const { authorizationUrl } = await startSignIn(t, '/auth/login/hub');
    const response = await deliverCallback(t, await provider.signIn(authorizationUrl.href, 'nocookie'), []).expect(401);
    expect(response.body.errors[0].message).toBe('did not find expected authorization request details in session');
  });

  it('passes the provider\'s access_denied on', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/hub');
    const response = await deliverCallback(t, await provider.abort(authorizationUrl.href), cookies).expect(401);
    expect(response.body.errors[0].extensions.reason).toBe('access_denied');
  });

  it('refuses a profile without the identifier field', async () => {
    const env = { PUBLIC_URL, AUTH_PROVIDERS: 'hub', ...oauth2Env('hub', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true', IDENTIFIER_KEY: 'login' }) };
    const other = await createTestApp(env);
    try {
      const { authorizationUrl, cookies } = await startSignIn(other, '/auth/login/hub');
      const response = await deliverCallback(other, await provider.signIn(authorizationUrl.href, 'noid'), cookies).expect(401);
      expect(response.body.errors[0].message).toMatch(/^A provider profile must contain an id/);
    } finally {
      await other.close();
    }
  });

  it('refuses unknown people without public registration (AccessDenied) and an e-mail that belongs to another user (OAuthAccountNotLinked)', async () => {
    const closed = await startSignIn(t, '/auth/login/closed');
    const refused = await deliverCallback(t, await provider.signIn(closed.authorizationUrl.href, 'stranger'), closed.cookies).expect(403);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'AccessDenied' });

    await t.system.db.insertInto('tessera_users').values({ email: 'taken@example.test', status: 'active' }).execute();
    const hub = await startSignIn(t, '/auth/login/hub');
    const collision = await deliverCallback(t, await provider.signIn(hub.authorizationUrl.href, 'taken'), hub.cookies).expect(403);
    expect(collision.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'OAuthAccountNotLinked' });
    const users = await t.system.db.selectFrom('tessera_users').select('provider').where('email', '=', 'taken@example.test').execute();
    expect(users).toEqual([{ provider: 'default' }]);
  });

  it('lists the provider with its driver, label and icon, never its secret', async () => {
    const listing = await t.request.get('/auth').expect(200);
    expect(listing.body.data).toEqual([
      { name: 'hub', driver: 'oauth2', label: 'Hub', icon: 'github' },
      { name: 'closed', driver: 'oauth2', label: 'Closed', icon: null },
    ]);
    const providers = await t.request.get('/auth/providers').expect(200);
    expect(providers.body.hub).toMatchObject({ type: 'oauth', name: 'Hub' });
    for (const body of [listing.text, providers.text]) expect(body).not.toContain('tessera-test-secret');
  });
});
