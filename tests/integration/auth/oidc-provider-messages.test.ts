import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMetadataServer, startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { deliverCallback, providerEnv, PUBLIC_URL, redirectUrisFor, startSignIn } from './oidc-test-kit.ts';

/** SPEC §8 provider-login messages and SPEC §9's identity client clock tolerance, against a real provider. */
describe('OpenID Connect provider-login messages', () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  const metadataServers: Array<{ url: string; close(): Promise<void> }> = [];

  beforeAll(async () => {
    provider = await startOidcProvider(redirectUrisFor(['acme']));
    const serve = async (transform: (metadata: Record<string, unknown>, ownUrl: string) => Record<string, unknown>) => {
      const server = await startMetadataServer(provider.issuer, transform);
      metadataServers.push(server);
      return server.url;
    };
    t = await createTestApp({
      PUBLIC_URL,
      AUTH_PROVIDERS: 'acme,noissuer,oauthonly',
      ...providerEnv('acme', provider.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true' }),
      // A discovery document that does not say which issuer it describes.
      ...providerEnv('noissuer', await serve(({ issuer: _omitted, ...metadata }) => metadata)),
      // RFC 8414 OAuth 2.0 metadata: none of OpenID Connect Discovery's ID token members.
      ...providerEnv('oauthonly', await serve(({ id_token_signing_alg_values_supported: _a, subject_types_supported: _s, ...metadata }, ownUrl) => ({ ...metadata, issuer: ownUrl }))),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    provider.setTokenResponse(null);
    provider.setClockSkew(0);
  });
  afterAll(async () => {
    await t?.close();
    for (const server of metadataServers) await server.close();
    await provider?.close();
  });

  async function callbackAs(accountId: string, status: number) {
    const started = await startSignIn(t, '/auth/login/acme');
    const callback = await provider.signIn(started.authorizationUrl.href, accountId);
    return deliverCallback(t, callback, started.cookies).expect(status);
  }

  function failure(response: { body: { errors: Array<{ message: string; extensions: Record<string, unknown> }> } }) {
    expect(response.body.errors[0]!.extensions).toMatchObject({ code: 'INVALID_CREDENTIALS', reason: 'OAuthCallback' });
    return response.body.errors[0]!.message;
  }

  it('says "id_token not present in TokenSet" when the token response has no ID token', async () => {
    provider.setTokenResponse(({ id_token: _dropped, ...body }) => body);
    expect(failure(await callbackAs('noidtoken', 401))).toBe('id_token not present in TokenSet');
  });

  it('says "expected access_token to be returned …" when the token response has no access token', async () => {
    provider.setTokenResponse(({ access_token: _dropped, ...body }) => body);
    expect(failure(await callbackAs('noaccess', 401))).toBe('expected access_token to be returned when asking for userinfo in verify callback');
  });

  it('tolerates 10 seconds of clock difference in the ID token, not more (SPEC §9 identity client)', async () => {
    // The provider's clock is behind: its 5-second ID token expired 7 s before our now, then 13 s.
    provider.setClockSkew(-12, 5);
    await callbackAs('skew7', 302);
    provider.setClockSkew(-18, 5);
    expect(failure(await callbackAs('skew13', 401))).toMatch(/"exp"/);
  });

  it('tolerates 15 seconds past the 900-second life of its own sealed request cookies (SPEC §9 token clock tolerance)', async () => {
    const deliverLate = async (seconds: number) => {
      const started = await startSignIn(t, '/auth/login/acme');
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + seconds * 1000);
      const response = await t.request.get(`/auth/login/acme/callback?code=unused&state=forged&iss=${encodeURIComponent(provider.issuer)}`).set('Cookie', started.cookies.join('; ')).expect(401);
      vi.useRealTimers();
      return failure(response);
    };
    // Within the tolerance the cookies still open, so the forged state is what fails.
    expect(await deliverLate(900 + 10)).toBe('unexpected "state" response parameter value');
    expect(await deliverLate(900 + 20)).toBe('did not find expected authorization request details in session');
  });

  it('says "client must have an issuer with an identifier" when discovery names no issuer, before redirecting', async () => {
    const response = await t.request.get('/auth/login/noissuer').expect(503);
    expect(response.body.errors[0]).toMatchObject({ message: 'client must have an issuer with an identifier', extensions: { code: 'SERVICE_UNAVAILABLE', reason: 'OAuthSignin' } });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('says "client must be an instance of the OpenID client" for an OAuth 2.0 server that is no OpenID provider', async () => {
    const response = await t.request.get('/auth/login/oauthonly').expect(503);
    expect(response.body.errors[0]).toMatchObject({ message: 'client must be an instance of the OpenID client', extensions: { code: 'SERVICE_UNAVAILABLE', reason: 'OAuthSignin' } });
  });

  it('says "authentication requires session support" when the SDK flow is asked for tokens instead of a session', async () => {
    for (const mode of ['json', 'cookie']) {
      const response = await t.request.get(`/auth/login/acme?mode=${mode}`).expect(400);
      expect(response.body.errors[0]).toMatchObject({ message: 'authentication requires session support', extensions: { code: 'INVALID_QUERY', field: 'mode' } });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const other = await t.request.get('/auth/login/acme?mode=token').expect(400);
    expect(other.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'mode' });
    await t.request.get('/auth/login/acme?mode=session').expect(302);
  });
});
