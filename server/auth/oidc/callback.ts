import type Koa from 'koa';
import * as oidc from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import type { OpenIdProviderConfig } from '../../config/load-config.ts';
import { getProviderClient } from './provider-client.ts';
import { type CompletedAuthorization, profileIdentifier } from './provider-profile.ts';
import { takeAuthorizationRequest } from './request-cookies.ts';
import { MISSING_ACCESS_TOKEN_MESSAGE, MISSING_ID_TOKEN_MESSAGE, MISSING_REQUEST_DETAILS_MESSAGE, ProviderSignInError } from './sign-in-error.ts';
import { verifyIdTokenSignature } from './verify-id-token.ts';

/**
 * Finishes the authorization-code flow on the callback request: reads the state, PKCE and nonce cookies
 * back (clearing them), exchanges the code, verifies the ID token and reads the user info. Throws
 * ProviderSignInError for every way this can fail.
 */
export async function completeAuthorization(ctx: Koa.Context, app: AppContext, provider: OpenIdProviderConfig): Promise<CompletedAuthorization> {
  const request = await takeAuthorizationRequest(ctx, app, provider.name);
  if (!request) throw new ProviderSignInError('OAuthCallback', MISSING_REQUEST_DETAILS_MESSAGE);
  const client = await getProviderClient(provider).catch((error: Error) => {
    throw new ProviderSignInError('OAuthCallback', error.message, { cause: error });
  });

  const currentUrl = new URL(request.redirectUri);
  currentUrl.search = ctx.querystring;
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(client.configuration, currentUrl, {
      pkceCodeVerifier: request.codeVerifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw fromProviderError(error);
  }

  if (!tokens.id_token) throw new ProviderSignInError('OAuthCallback', MISSING_ID_TOKEN_MESSAGE);
  await verifyIdTokenSignature(tokens.id_token, provider, client);
  const idClaims: Record<string, unknown> = { ...tokens.claims() };
  const claims = { ...idClaims, ...(await readUserInfo(client.configuration, tokens.access_token, String(idClaims.sub))) };

  const identifier = profileIdentifier(provider, claims);
  return { profile: { identifier, claims, refreshToken: tokens.refresh_token ?? null }, callbackUrl: request.callbackUrl };
}

async function readUserInfo(configuration: oidc.Configuration, accessToken: string | undefined, subject: string): Promise<Record<string, unknown>> {
  if (!configuration.serverMetadata().userinfo_endpoint) return {};
  if (!accessToken) throw new ProviderSignInError('OAuthCallback', MISSING_ACCESS_TOKEN_MESSAGE);
  try {
    return await oidc.fetchUserInfo(configuration, accessToken, subject);
  } catch (error) {
    throw new ProviderSignInError('OAuthCallback', `Reading the user info failed: ${describe(error)}`, { cause: error });
  }
}

/**
 * SPEC §8: a provider's error other than server_error and the invalid_* ones is passed on as it is
 * (e.g. access_denied when the person declined); those, and every other failure, are a failed sign-in.
 */
function fromProviderError(error: unknown): ProviderSignInError {
  if (error instanceof oidc.AuthorizationResponseError) {
    const code = error.error;
    const message = error.error_description ? `${code}: ${error.error_description}` : code;
    // Only plain codes travel on, as they end up in the error page's URL.
    if (code !== 'server_error' && !code.startsWith('invalid') && /^[\w.-]{1,64}$/.test(code)) return new ProviderSignInError(code, message, { cause: error });
    return new ProviderSignInError('OAuthCallback', message, { cause: error });
  }
  const missing = missingToken(error);
  if (missing) return new ProviderSignInError('OAuthCallback', missing, { cause: error });
  return new ProviderSignInError('OAuthCallback', describe(error), { cause: error });
}

/**
 * openid-client refuses a token response without access_token or id_token before we see it; SPEC §8
 * names those two cases with its own messages.
 */
function missingToken(error: unknown): string | null {
  const failure = error instanceof oidc.ClientError && error.cause instanceof Error ? error.cause : error;
  if (!(failure instanceof Error)) return null;
  const body = (failure.cause as { body?: unknown } | undefined)?.body;
  if (typeof body !== 'object' || body === null) return null;
  const token = (name: string) => typeof (body as Record<string, unknown>)[name] === 'string' && (body as Record<string, unknown>)[name] !== '';
  if (failure.message.startsWith('"response" body "access_token" property') && !token('access_token')) return MISSING_ACCESS_TOKEN_MESSAGE;
  if (failure.message.startsWith('"response" body "id_token" property') && !token('id_token')) return MISSING_ID_TOKEN_MESSAGE;
  return null;
}

/** openid-client wraps the telling message ('unexpected "state" …') in a generic one; prefer the inner. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error instanceof oidc.ClientError && error.cause instanceof Error ? error.cause.message : error.message;
}
