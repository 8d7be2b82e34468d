import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { OpenIdProviderConfig } from '../../config/load-config.ts';
import { IDENTITY_CLIENT_CLOCK_TOLERANCE_SECONDS, type ProviderClient } from './provider-client.ts';
import { ProviderSignInError } from './sign-in-error.ts';

/**
 * Verifies the ID token's signature: with the client secret for HS* tokens, else against the issuer's
 * remote key set (jose, SPEC §9 limits). openid-client has already checked its claims (iss, aud, exp,
 * nonce); checking them again here costs nothing and keeps this function safe on its own.
 */
export async function verifyIdTokenSignature(idToken: string, provider: OpenIdProviderConfig, client: ProviderClient): Promise<JWTPayload> {
  const { issuer } = client.configuration.serverMetadata();
  const options = { issuer, audience: provider.clientId, clockTolerance: IDENTITY_CLIENT_CLOCK_TOLERANCE_SECONDS };
  try {
    const { alg } = decodeProtectedHeader(idToken);
    if (alg?.startsWith('HS')) {
      if (!provider.clientSecret) throw new Error('an HMAC-signed ID token needs a client secret');
      return (await jwtVerify(idToken, new TextEncoder().encode(provider.clientSecret), options)).payload;
    }
    if (!client.keySet) throw new Error('the issuer publishes no jwks_uri to verify the ID token with');
    return (await jwtVerify(idToken, client.keySet, options)).payload;
  } catch (error) {
    throw new ProviderSignInError('OAuthCallback', `ID token signature could not be verified: ${(error as Error).message}`, { cause: error });
  }
}
