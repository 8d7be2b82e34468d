import type Koa from 'koa';
import * as oidc from 'openid-client';
import type { AppContext } from '../../app-context.ts';
import type { OpenIdProviderConfig } from '../../config/load-config.ts';
import { choosePkceMethod } from './pkce.ts';
import { getProviderClient } from './provider-client.ts';
import { saveAuthorizationRequest } from './request-cookies.ts';

/** Where the provider sends the browser back to, and where it goes once signed in. */
export interface AuthorizationTargets {
  redirectUri: string;
  callbackUrl: string;
}

/**
 * Starts the authorization-code flow: state, nonce and PKCE (S256, else plain) are created and kept in
 * cookies; returns the provider's authorization URL to redirect the browser to.
 */
export async function beginAuthorization(ctx: Koa.Context, app: AppContext, provider: OpenIdProviderConfig, targets: AuthorizationTargets): Promise<URL> {
  const { configuration } = await getProviderClient(provider);
  const method = choosePkceMethod(configuration.serverMetadata());
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: targets.redirectUri,
    scope: provider.scope,
    state,
    nonce,
    code_challenge: method === 'S256' ? await oidc.calculatePKCECodeChallenge(codeVerifier) : codeVerifier,
    code_challenge_method: method,
  });
  await saveAuthorizationRequest(ctx, app, provider.name, { state, nonce, codeVerifier, ...targets });
  return url;
}
