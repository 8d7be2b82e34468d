import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { AppContext } from '../../app-context.ts';
import type { OAuth2ProviderConfig } from '../../config/load-config.ts';
import type { AuthorizationTargets } from '../oidc/authorize.ts';
import { type CompletedAuthorization, profileIdentifier } from '../oidc/provider-profile.ts';
import { saveAuthorizationRequest, takeAuthorizationRequest } from '../oidc/request-cookies.ts';
import { MISSING_ACCESS_TOKEN_MESSAGE, MISSING_REQUEST_DETAILS_MESSAGE, ProviderSignInError } from '../oidc/sign-in-error.ts';

/** How long a token or profile request to the provider may take. */
const PROVIDER_TIMEOUT_MS = 10_000;

const random = () => randomBytes(32).toString('base64url');

/**
 * Plain OAuth 2.0 (RFC 6749 authorization code with RFC 7636 PKCE S256 and state), for providers without
 * OpenID Connect discovery such as GitHub: the endpoints come from the configuration and the profile from
 * PROFILE_URL. State and verifier travel in the same encrypted cookies as OpenID's.
 */
export async function beginAuthorization(ctx: Koa.Context, app: AppContext, provider: OAuth2ProviderConfig, targets: AuthorizationTargets): Promise<URL> {
  const state = random();
  const codeVerifier = random();
  const url = new URL(provider.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('redirect_uri', targets.redirectUri);
  if (provider.scope) url.searchParams.set('scope', provider.scope);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', createHash('sha256').update(codeVerifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  // OAuth 2.0 has no nonce; the cookie set stays the same as OpenID's, so the one reader serves both.
  await saveAuthorizationRequest(ctx, app, provider.name, { state, nonce: random(), codeVerifier, ...targets });
  return url;
}

/**
 * Finishes the flow on the callback: the request cookies are read back (and cleared), the state must
 * match, the code is exchanged with the verifier and the profile is read with the access token.
 */
export async function completeAuthorization(ctx: Koa.Context, app: AppContext, provider: OAuth2ProviderConfig): Promise<CompletedAuthorization> {
  const request = await takeAuthorizationRequest(ctx, app, provider.name);
  if (!request) throw new ProviderSignInError('OAuthCallback', MISSING_REQUEST_DETAILS_MESSAGE);
  const query = ctx.query as Record<string, unknown>;
  if (typeof query.error === 'string') throw providerError(query.error, query.error_description);
  if (query.state !== request.state) throw new ProviderSignInError('OAuthCallback', 'unexpected "state" response parameter value');
  if (typeof query.code !== 'string' || query.code === '') throw new ProviderSignInError('OAuthCallback', 'the callback has no "code" parameter');

  const tokens = await exchangeCode(provider, query.code, request.redirectUri, request.codeVerifier);
  const claims = await readProfile(provider, tokens.access_token);
  return {
    profile: { identifier: profileIdentifier(provider, claims), claims, refreshToken: typeof tokens.refresh_token === 'string' ? tokens.refresh_token : null },
    callbackUrl: request.callbackUrl,
  };
}

async function exchangeCode(provider: OAuth2ProviderConfig, code: string, redirectUri: string, codeVerifier: string): Promise<{ access_token: string; refresh_token?: unknown }> {
  const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier });
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
  if (provider.clientSecret) {
    // client_secret_basic (RFC 6749 §2.3.1): both parts form-encoded before base64.
    const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
    headers.authorization = `Basic ${Buffer.from(`${encode(provider.clientId)}:${encode(provider.clientSecret)}`).toString('base64')}`;
  } else {
    body.set('client_id', provider.clientId);
  }
  const answer = await callProvider(provider.accessUrl, { method: 'POST', headers, body }, 'token');
  if (typeof answer.error === 'string') throw providerError(answer.error, answer.error_description);
  if (typeof answer.access_token !== 'string' || answer.access_token === '') throw new ProviderSignInError('OAuthCallback', MISSING_ACCESS_TOKEN_MESSAGE);
  return answer as { access_token: string; refresh_token?: unknown };
}

async function readProfile(provider: OAuth2ProviderConfig, accessToken: string): Promise<Record<string, unknown>> {
  // GitHub's API refuses requests without a User-Agent.
  return callProvider(provider.profileUrl, { headers: { accept: 'application/json', authorization: `Bearer ${accessToken}`, 'user-agent': 'Tessera' } }, 'profile');
}

/** One JSON request to the provider; anything but a JSON object is a failed callback (never echoing tokens). */
async function callProvider(url: string, init: RequestInit, what: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw new ProviderSignInError('OAuthCallback', `The provider's ${what} endpoint could not be reached: ${(error as Error).message}`, { cause: error });
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderSignInError('OAuthCallback', `The provider's ${what} endpoint answered ${response.status} without JSON.`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ProviderSignInError('OAuthCallback', `The provider's ${what} endpoint answered ${response.status} without a JSON object.`);
  const object = json as Record<string, unknown>;
  if (!response.ok && typeof object.error !== 'string') throw new ProviderSignInError('OAuthCallback', `The provider's ${what} endpoint answered ${response.status}.`);
  return object;
}

/**
 * SPEC §8, as for OpenID: a provider's error other than server_error and the invalid_* ones is passed on
 * as its code (access_denied when the person declined); the others are a failed callback.
 */
function providerError(code: string, description: unknown): ProviderSignInError {
  const message = typeof description === 'string' && description ? `${code}: ${description}` : code;
  if (code !== 'server_error' && !code.startsWith('invalid') && /^[\w.-]{1,64}$/.test(code)) return new ProviderSignInError(code, message);
  return new ProviderSignInError('OAuthCallback', message);
}
