import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import * as oidc from 'openid-client';
import type { OpenIdProviderConfig } from '../../config/load-config.ts';
import { NO_ISSUER_MESSAGE, NOT_OPENID_CLIENT_MESSAGE, ProviderSignInError } from './sign-in-error.ts';

/**
 * Seconds of clock difference the identity client (openid-client) tolerates in the provider's ID token
 * time claims (SPEC §9: 10 s). Our own JWTs use TOKEN_CLOCK_TOLERANCE_SECONDS (15 s) instead.
 */
export const IDENTITY_CLIENT_CLOCK_TOLERANCE_SECONDS = 10;

/** jose remote key-set options (SPEC §9: time-out 5 s, cooldown 30 s, cache age 10 minutes). */
export const REMOTE_KEY_SET_OPTIONS = { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 } as const;

/** An issuer's discovered configuration plus the key set its ID tokens are verified against. */
export interface ProviderClient {
  configuration: oidc.Configuration;
  /** Null when the issuer publishes no jwks_uri. */
  keySet: JWTVerifyGetKey | null;
}

// Keyed by the frozen provider config, so each loaded configuration (and each test app) has its own.
const clients = new WeakMap<OpenIdProviderConfig, Promise<ProviderClient>>();

/**
 * The provider's client, discovered once and kept; a failed discovery is not kept, so the next sign-in
 * tries again.
 */
export function getProviderClient(provider: OpenIdProviderConfig): Promise<ProviderClient> {
  let client = clients.get(provider);
  if (!client) {
    client = discoverClient(provider);
    clients.set(provider, client);
    client.catch(() => clients.delete(provider));
  }
  return client;
}

async function discoverClient(provider: OpenIdProviderConfig): Promise<ProviderClient> {
  const issuer = new URL(provider.issuerUrl);
  const metadata: Partial<oidc.ClientMetadata> = {
    [oidc.clockTolerance]: IDENTITY_CLIENT_CLOCK_TOLERANCE_SECONDS,
    ...(provider.clientSecret ? {} : { token_endpoint_auth_method: 'none' }),
  };
  const authentication = provider.clientSecret ? oidc.ClientSecretBasic(provider.clientSecret) : oidc.None();
  let configuration: oidc.Configuration;
  try {
    // An http:// issuer is the administrator's explicit choice (a provider on the same host or network).
    const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
    configuration = await oidc.discovery(issuer, provider.clientId, metadata, authentication, { execute, timeout: 10 });
  } catch (error) {
    if (lacksIssuer(error)) throw new ProviderSignInError('OAuthSignin', NO_ISSUER_MESSAGE, { cause: error });
    throw new ProviderSignInError('OAuthSignin', `Cannot discover the OpenID Connect issuer of "${provider.name}": ${(error as Error).message}`, { cause: error });
  }
  const { jwks_uri, id_token_signing_alg_values_supported, subject_types_supported } = configuration.serverMetadata();
  // OpenID Connect Discovery requires both; plain OAuth 2.0 metadata (RFC 8414) has neither, and such a
  // server issues no ID token to sign anyone in with.
  if (!Array.isArray(id_token_signing_alg_values_supported) || !Array.isArray(subject_types_supported)) {
    throw new ProviderSignInError('OAuthSignin', NOT_OPENID_CLIENT_MESSAGE);
  }
  // openid-client 6 keeps its own key-set cache without these limits, so ID token signatures are checked
  // with jose's remote key set instead (see verify-id-token.ts).
  const keySet = jwks_uri ? createRemoteJWKSet(new URL(jwks_uri), REMOTE_KEY_SET_OPTIONS) : null;
  return { configuration, keySet };
}

/** openid-client's refusal of a discovery document without an `issuer`, told by the document it carries. */
function lacksIssuer(error: unknown): boolean {
  const failure = error instanceof oidc.ClientError && error.cause instanceof Error ? error.cause : error;
  if (!(failure instanceof Error)) return false;
  const body = (failure.cause as { body?: unknown } | undefined)?.body;
  if (typeof body !== 'object' || body === null) return false;
  const issuer = (body as Record<string, unknown>).issuer;
  return typeof issuer !== 'string' || issuer === '';
}
