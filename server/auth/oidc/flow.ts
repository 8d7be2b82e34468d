import type Koa from 'koa';
import type { AppContext } from '../../app-context.ts';
import { InvalidQueryError, isTesseraError } from '../../errors.ts';
import { startCookieSession } from '../session-cookie.ts';
import { lazyModule } from '../../lazy-module.ts';
import { findOrCreateProviderUser } from './link-user.ts';
import { findProvider } from './providers.ts';
import { resolveRedirectTarget } from './redirect-target.ts';
import { ACCESS_DENIED_MESSAGE, ProviderSignInError, SESSION_SUPPORT_MESSAGE } from './sign-in-error.ts';

// openid-client loads with the first provider sign-in, not at start-up.
const loadAuthorize = lazyModule(() => import('./authorize.ts'));
const loadCallback = lazyModule(() => import('./callback.ts'));

/** The redirect URI of the sign-in pages' flow, to register with the provider. */
export function pageCallbackUri(app: AppContext, provider: string): string {
  return `${app.config.server.publicUrl}/auth/callback/${provider}`;
}

/** The redirect URI of the SDK-style flow (`GET /auth/login/:provider`), to register with the provider. */
export function sdkCallbackUri(app: AppContext, provider: string): string {
  return `${app.config.server.publicUrl}/auth/login/${provider}/callback`;
}

/**
 * Page flow, first half: redirects the browser to the provider. `callbackUrl` (already checked by the
 * caller) is where the browser goes once signed in. A failure redirects to the error page
 * (`/auth/error?error=OAuthSignin`); an unknown provider is a 404.
 */
export async function startProviderSignIn(ctx: Koa.Context, app: AppContext, providerName: string, callbackUrl: string): Promise<void> {
  const provider = findProvider(app, providerName);
  try {
    ctx.redirect((await (await loadAuthorize()).beginAuthorization(ctx, app, provider, { redirectUri: pageCallbackUri(app, provider.name), callbackUrl })).href);
  } catch (error) {
    redirectToErrorPage(ctx, app, provider.name, error);
  }
}

/**
 * Page flow, second half (`/auth/callback/:provider`): on success the user gets a session cookie and the
 * browser goes to the callbackUrl given at the start; on failure to `/auth/error?error=<reason>`.
 */
export async function handleProviderCallback(ctx: Koa.Context, app: AppContext, providerName: string): Promise<void> {
  const provider = findProvider(app, providerName);
  try {
    const { profile, callbackUrl } = await (await loadCallback()).completeAuthorization(ctx, app, provider);
    await signIn(ctx, app, await findOrCreateProviderUser(app, provider, profile));
    ctx.redirect(callbackUrl);
  } catch (error) {
    redirectToErrorPage(ctx, app, provider.name, error);
  }
}

/**
 * SDK flow, first half: like the page flow, with `?redirect=` checked by resolveRedirectTarget; failures
 * answer as JSON errors.
 */
export async function startSdkSignIn(ctx: Koa.Context, app: AppContext, providerName: string, redirect: unknown): Promise<void> {
  const provider = findProvider(app, providerName);
  requireSessionMode(ctx.query.mode);
  const callbackUrl = resolveRedirectTarget(app.config.server.publicUrl, provider, redirect);
  ctx.redirect((await (await loadAuthorize()).beginAuthorization(ctx, app, provider, { redirectUri: sdkCallbackUri(app, provider.name), callbackUrl })).href);
}

/** SDK flow, second half: session cookie and redirect, or a JSON error carrying `extensions.reason`. */
export async function handleSdkCallback(ctx: Koa.Context, app: AppContext, providerName: string): Promise<void> {
  const provider = findProvider(app, providerName);
  const { profile, callbackUrl } = await (await loadCallback()).completeAuthorization(ctx, app, provider);
  await signIn(ctx, app, await findOrCreateProviderUser(app, provider, profile));
  ctx.redirect(callbackUrl);
}

/**
 * A provider sign-in ends in a session cookie set on the browser's redirect back, so it cannot hand
 * tokens to a script: `?mode=json` or `?mode=cookie` (the other sign-in modes) is a 400 with SPEC §8's message.
 */
function requireSessionMode(mode: unknown): void {
  if (mode === undefined || mode === 'session') return;
  if (mode === 'json' || mode === 'cookie') throw new InvalidQueryError(SESSION_SUPPORT_MESSAGE, { field: 'mode' });
  throw new InvalidQueryError('"mode" must be session, the only mode of a provider sign-in.', { field: 'mode' });
}

async function signIn(ctx: Koa.Context, app: AppContext, userId: string): Promise<void> {
  try {
    await startCookieSession(ctx, app, userId);
  } catch (error) {
    // An inactive user or an address the role's ip_access does not allow.
    if (isTesseraError(error) && error.status < 500) throw new ProviderSignInError('AccessDenied', ACCESS_DENIED_MESSAGE, { cause: error });
    throw error;
  }
}

function redirectToErrorPage(ctx: Koa.Context, app: AppContext, provider: string, error: unknown): void {
  if (!(error instanceof ProviderSignInError)) throw error;
  app.logger.warn({ err: error, provider, reason: error.reason }, `sign-in with ${provider} failed: ${error.message}`);
  ctx.redirect(`${app.config.server.publicUrl}/auth/error?error=${encodeURIComponent(error.reason)}`);
}
