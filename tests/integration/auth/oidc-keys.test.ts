import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../../helpers/oidc-provider.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { deliverCallback, providerEnv, PUBLIC_URL, redirectUrisFor, startSignIn } from './oidc-test-kit.ts';

describe('OpenID Connect ID token signatures (jose remote key set)', () => {
  let foreignKeys: TestOidcProvider;
  let silentKeys: TestOidcProvider;
  let t: TestApp;

  beforeAll(async () => {
    // A key set that does not hold the key the provider signs with.
    const { publicKey } = await generateKeyPair('RS256');
    foreignKeys = await startOidcProvider(redirectUrisFor(['foreign']), { publishedJwks: { keys: [{ ...(await exportJWK(publicKey)), kid: 'other', alg: 'RS256', use: 'sig' }] } });
    silentKeys = await startOidcProvider(redirectUrisFor(['silent']), { hangJwks: true });
    t = await createTestApp({
      PUBLIC_URL,
      AUTH_PROVIDERS: 'foreign,silent',
      ...providerEnv('foreign', foreignKeys.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true' }),
      ...providerEnv('silent', silentKeys.issuer, { ALLOW_PUBLIC_REGISTRATION: 'true' }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await foreignKeys?.close();
    await silentKeys?.close();
  });

  it('refuses an ID token whose signing key is not in the published key set', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/foreign');
    const response = await deliverCallback(t, await foreignKeys.signIn(authorizationUrl.href, 'mallory'), cookies).expect(401);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_CREDENTIALS', reason: 'OAuthCallback' });
    expect(response.body.errors[0].message).toMatch(/^ID token signature could not be verified: no applicable key found/);
    const users = await t.system.db.selectFrom('tessera_users').select('id').where('external_identifier', '=', 'mallory').execute();
    expect(users).toHaveLength(0);
  });

  it('gives up on a key set that does not answer after 5 seconds', async () => {
    const { authorizationUrl, cookies } = await startSignIn(t, '/auth/login/silent');
    const callback = await silentKeys.signIn(authorizationUrl.href, 'patient');
    const started = Date.now();
    const response = await deliverCallback(t, callback, cookies).expect(401);
    const waited = Date.now() - started;
    expect(response.body.errors[0].message).toMatch(/^ID token signature could not be verified: request timed out/);
    expect(waited).toBeGreaterThanOrEqual(4_900);
    // The upper bound only has to tell "gave up at its time-out" from "waited for ever" (the test's 30 s):
    // a busy 2-core machine can add seconds to the callback's own work.
    expect(waited).toBeLessThan(25_000);
  });
});
