import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetadataServer, startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { deliverCallback, providerEnv, PUBLIC_URL, redirectUrisFor, setCookieHeader, startSignIn, type StartedSignIn } from './oidc-test-kit.ts';

const NAMES = ['open', 'closed', 'noid', 'swapiss', 'mismatch', 'pkcenone', 'pkcebad', 'pkceplain'];
const NO_REQUEST_DETAILS = 'did not find expected authorization request details in session';
const PKCE_REFUSED = 'neither code_challenge_method supported by the client is supported by the issuer';

describe('OpenID Connect sign-in failures', () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  const metadataServers: Array<{ url: string; close(): Promise<void> }> = [];

  beforeAll(async () => {
    provider = await startOidcProvider(redirectUrisFor(NAMES));
    provider.setClaims((id) => ({ email: id === 'impostor' ? TEST_ADMIN.email : `${id}@example.test`, email_verified: true }));
    const serve = async (transform: (metadata: Record<string, unknown>, ownUrl: string) => Record<string, unknown>) => {
      const server = await startMetadataServer(provider.issuer, transform);
      metadataServers.push(server);
      return server.url;
    };
    const withoutPkce = ({ code_challenge_methods_supported: _omitted, ...metadata }: Record<string, unknown>) => metadata;
    t = await createTestApp({
      PUBLIC_URL,
      AUTH_PROVIDERS: NAMES.join(','),
      ...providerEnv('open', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true' }),
      ...providerEnv('closed', provider.issuer),
      ...providerEnv('noid', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true', IDENTIFIER_KEY: 'employee_id' }),
      // The discovery document names the wrapper as issuer; the provider's responses name the real one.
      ...providerEnv('swapiss', await serve((metadata, ownUrl) => ({ ...metadata, issuer: ownUrl })), { ALLOW_PUBLIC_REGISTRATION: 'true' }),
      // The discovery document names another issuer than the URL it was fetched for.
      ...providerEnv('mismatch', await serve((metadata) => metadata)),
      ...providerEnv('pkcenone', await serve((metadata, ownUrl) => ({ ...withoutPkce(metadata), issuer: ownUrl }))),
      ...providerEnv('pkcebad', await serve((metadata, ownUrl) => ({ ...metadata, issuer: ownUrl, code_challenge_methods_supported: ['S512'] }))),
      ...providerEnv('pkceplain', await serve((metadata, ownUrl) => ({ ...metadata, issuer: ownUrl, code_challenge_methods_supported: ['plain'] }))),
    });
  });
  afterAll(async () => {
    await t?.close();
    for (const server of metadataServers) await server.close();
    await provider?.close();
  });

  /** Starts a sign-in with `name` and plays the provider's side as `accountId`. */
  async function signInAtProvider(name: string, accountId: string): Promise<StartedSignIn & { callback: URL }> {
    const started = await startSignIn(t, `/auth/login/${name}`);
    return { ...started, callback: await provider.signIn(started.authorizationUrl.href, accountId) };
  }

  function expectFailure(response: { body: { errors: Array<{ message: string; extensions: Record<string, unknown> }> } }, code: string, reason: string) {
    expect(response.body.errors[0]!.extensions).toMatchObject({ code, reason });
    return response.body.errors[0]!.message;
  }

  it('refuses an unknown identity with AccessDenied when public registration is off, creating nobody', async () => {
    const { callback, cookies } = await signInAtProvider('closed', 'stranger');
    const response = await deliverCallback(t, callback, cookies).expect(403);
    expect(expectFailure(response, 'FORBIDDEN', 'AccessDenied')).toBe('You do not have permission to sign in.');
    const users = await t.system.db.selectFrom('tessera_users').select('id').where('external_identifier', '=', 'stranger').execute();
    expect(users).toHaveLength(0);
  });

  it('refuses a linked user who is not active with AccessDenied', async () => {
    await t.system.db.insertInto('tessera_users').values({ email: 'gone@example.test', provider: 'open', external_identifier: 'gone', status: 'suspended' }).execute();
    const { callback, cookies } = await signInAtProvider('open', 'gone');
    const response = await deliverCallback(t, callback, cookies).expect(403);
    expectFailure(response, 'FORBIDDEN', 'AccessDenied');
  });

  it('refuses an e-mail that belongs to a user of another sign-in method with OAuthAccountNotLinked', async () => {
    const { callback, cookies } = await signInAtProvider('open', 'impostor');
    const response = await deliverCallback(t, callback, cookies).expect(403);
    expect(expectFailure(response, 'FORBIDDEN', 'OAuthAccountNotLinked')).toBe('To confirm your identity, sign in with the same account you used originally.');
    const admin = await t.system.db.selectFrom('tessera_users').select(['provider', 'external_identifier']).where('email', '=', TEST_ADMIN.email).executeTakeFirstOrThrow();
    expect(admin).toEqual({ provider: 'default', external_identifier: null });
  });

  it('refuses a callback without the request cookies with the SPEC message', async () => {
    const { callback } = await signInAtProvider('open', 'nocookies');
    const response = await deliverCallback(t, callback, []).expect(401);
    expect(expectFailure(response, 'INVALID_CREDENTIALS', 'OAuthCallback')).toBe(NO_REQUEST_DETAILS);
  });

  it('treats a tampered cookie, or cookies of another provider, as missing', async () => {
    const { callback, cookies } = await signInAtProvider('open', 'tamper');
    const tampered = cookies.map((cookie) => (cookie.startsWith('tessera_oidc_state=') ? cookie.slice(0, -3) + (cookie.endsWith('A') ? 'BBB' : 'AAA') : cookie));
    expect(expectFailure(await deliverCallback(t, callback, tampered).expect(401), 'INVALID_CREDENTIALS', 'OAuthCallback')).toBe(NO_REQUEST_DETAILS);

    const other = await signInAtProvider('closed', 'crossed');
    const crossed = new URL(other.callback.href.replace('/auth/login/closed/', '/auth/login/open/'));
    expect(expectFailure(await deliverCallback(t, crossed, other.cookies).expect(401), 'INVALID_CREDENTIALS', 'OAuthCallback')).toBe(NO_REQUEST_DETAILS);
  });

  it('clears the request cookies on a failed callback too', async () => {
    const { callback, cookies } = await signInAtProvider('open', 'cleared');
    callback.searchParams.set('state', 'forged');
    const response = await deliverCallback(t, callback, cookies).expect(401);
    for (const name of ['tessera_oidc_state', 'tessera_oidc_pkce', 'tessera_oidc_nonce']) expect(setCookieHeader(response, name)).toMatch(/^[a-z_]+=;.*expires=Thu, 01 Jan 1970/i);
  });

  it('refuses a wrong state: a forged parameter, or the state cookie of another sign-in', async () => {
    const forged = await signInAtProvider('open', 'state1');
    forged.callback.searchParams.set('state', 'forged-state-value');
    const first = await deliverCallback(t, forged.callback, forged.cookies).expect(401);
    expect(expectFailure(first, 'INVALID_CREDENTIALS', 'OAuthCallback')).toBe('unexpected "state" response parameter value');

    const earlier = await startSignIn(t, '/auth/login/open');
    const later = await signInAtProvider('open', 'state2');
    const mixed = later.cookies.map((cookie) => (cookie.startsWith('tessera_oidc_state=') ? earlier.cookies.find((c) => c.startsWith('tessera_oidc_state='))! : cookie));
    const second = await deliverCallback(t, later.callback, mixed).expect(401);
    expect(expectFailure(second, 'INVALID_CREDENTIALS', 'OAuthCallback')).toBe('unexpected "state" response parameter value');
  });

  it('refuses a wrong nonce: the nonce cookie of another sign-in', async () => {
    const earlier = await startSignIn(t, '/auth/login/open');
    const later = await signInAtProvider('open', 'nonce');
    const mixed = later.cookies.map((cookie) => (cookie.startsWith('tessera_oidc_nonce=') ? earlier.cookies.find((c) => c.startsWith('tessera_oidc_nonce='))! : cookie));
    const response = await deliverCallback(t, later.callback, mixed).expect(401);
    expect(expectFailure(response, 'INVALID_CREDENTIALS', 'OAuthCallback')).toMatch(/unexpected ID Token "nonce" claim value/);
  });

  it('refuses a replayed callback: the code works once', async () => {
    const { callback, cookies } = await signInAtProvider('open', 'replay');
    await deliverCallback(t, callback, cookies).expect(302);
    const replay = await deliverCallback(t, callback, cookies).expect(401);
    expectFailure(replay, 'INVALID_CREDENTIALS', 'OAuthCallback');
  });

  it('refuses responses from another issuer than the discovered one', async () => {
    const { callback, cookies } = await signInAtProvider('swapiss', 'wrongiss');
    const response = await deliverCallback(t, callback, cookies).expect(401);
    expect(expectFailure(response, 'INVALID_CREDENTIALS', 'OAuthCallback')).toBe('unexpected "iss" (issuer) response parameter value');
  });

  it('refuses a discovery document that names another issuer, before redirecting anywhere', async () => {
    const response = await t.request.get('/auth/login/mismatch').expect(503);
    expect(expectFailure(response, 'SERVICE_UNAVAILABLE', 'OAuthSignin')).toMatch(/^Cannot discover the OpenID Connect issuer of "mismatch": .*issuer/);
    expect(setCookieHeader(response, 'tessera_oidc_state')).toBeUndefined();
  });

  it('refuses a profile without the identifier claim (no id)', async () => {
    const { callback, cookies } = await signInAtProvider('noid', 'anonymous');
    const response = await deliverCallback(t, callback, cookies).expect(401);
    expect(expectFailure(response, 'INVALID_CREDENTIALS', 'OAuthCallback')).toBe('A provider profile must contain an id: the "employee_id" claim is missing.');
  });

  it('passes a provider error such as access_denied on', async () => {
    const started = await startSignIn(t, '/auth/login/open');
    const callback = await provider.abort(started.authorizationUrl.href);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const response = await deliverCallback(t, callback, started.cookies).expect(401);
    expect(expectFailure(response, 'INVALID_CREDENTIALS', 'access_denied')).toBe('access_denied: End-User aborted interaction');
  });

  it('turns server_error and invalid_* provider errors into a failed sign-in (OAuthCallback)', async () => {
    for (const error of ['server_error', 'invalid_request', 'invalid_scope']) {
      const started = await startSignIn(t, '/auth/login/open');
      const callback = new URL(`${PUBLIC_URL}/auth/login/open/callback`);
      callback.search = new URLSearchParams({ error, state: started.authorizationUrl.searchParams.get('state')!, iss: provider.issuer }).toString();
      const response = await deliverCallback(t, callback, started.cookies).expect(401);
      expect(expectFailure(response, 'INVALID_CREDENTIALS', 'OAuthCallback')).toBe(error);
    }
  });

  it('refuses an issuer that supports neither S256 nor plain PKCE with the SPEC message', async () => {
    for (const name of ['pkcenone', 'pkcebad']) {
      const response = await t.request.get(`/auth/login/${name}`).expect(503);
      expect(expectFailure(response, 'SERVICE_UNAVAILABLE', 'OAuthSignin')).toBe(PKCE_REFUSED);
      expect(setCookieHeader(response, 'tessera_oidc_state')).toBeUndefined();
    }
  });

  it('falls back to plain PKCE when that is all the issuer supports', async () => {
    const { authorizationUrl } = await startSignIn(t, '/auth/login/pkceplain');
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('plain');
    expect(authorizationUrl.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  });
});
