import type Koa from 'koa';
import type { AppContext } from '../../app-context.ts';
import type { AuthProviderConfig } from '../../config/load-config.ts';
import { InvalidQueryError, isTesseraError, RouteNotFoundError } from '../../errors.ts';
import { endCookieSession, readCookieSession, startCookieSession } from '../session-cookie.ts';
import { lazyModule } from '../../lazy-module.ts';
import type { AuthorizationTargets } from './authorize.ts';
import { findOrCreateProviderUser } from './link-user.ts';
import type { CompletedAuthorization } from './provider-profile.ts';
import { findProvider } from './providers.ts';
import { resolveRedirectTarget } from './redirect-target.ts';
import { ACCESS_DENIED_MESSAGE, MISSING_REQUEST_DETAILS_MESSAGE, ProviderSignInError, SESSION_SUPPORT_MESSAGE } from './sign-in-error.ts';

// openid-client loads with the first provider sign-in, not at start-up.
const loadAuthorize = lazyModule(() => import('./authorize.ts'));
const loadCallback = lazyModule(() => import('./callback.ts'));
const loadOAuth2 = lazyModule(() => import('../oauth2/oauth2-flow.ts'));
const loadSaml = lazyModule(() => import('../saml/saml-flow.ts'));

/** The two halves of a sign-in that sends the browser to the provider and back (OpenID, OAuth 2.0). */
interface RedirectDriver {
  begin(ctx: Koa.Context, app: AppContext, targets: AuthorizationTargets): Promise<URL>;
  complete(ctx: Koa.Context, app: AppContext): Promise<CompletedAuthorization>;
}

/** The provider called `name` with its redirect driver; a provider that signs in otherwise (LDAP) has no such routes: 404. */
async function findRedirectProvider(app: AppContext, name: string): Promise<{ provider: AuthProviderConfig; driver: RedirectDriver }> {
  const provider = findProvider(app, name);
  switch (provider.driver) {
    case 'openid': {
      const [authorize, callback] = await Promise.all([loadAuthorize(), loadCallback()]);
      return { provider, driver: { begin: (ctx, app, targets) => authorize.beginAuthorization(ctx, app, provider, targets), complete: (ctx, app) => callback.completeAuthorization(ctx, app, provider) } };
    }
    case 'oauth2': {
      const flow = await loadOAuth2();
      return { provider, driver: { begin: (ctx, app, targets) => flow.beginAuthorization(ctx, app, provider, targets), complete: (ctx, app) => flow.completeAuthorization(ctx, app, provider) } };
    }
    case 'saml': {
      const flow = await loadSaml();
      const complete = () => {
        throw new RouteNotFoundError(`SAML responses for "${provider.name}" are posted to /auth/login/${provider.name}/acs.`);
      };
      return { provider, driver: { begin: (_ctx, app, targets) => flow.beginSamlSignIn(app, provider, { callbackUrl: targets.callbackUrl, page: targets.redirectUri === pageCallbackUri(app, provider.name) }), complete } };
    }
    default:
      throw new RouteNotFoundError(`Sign-in provider "${name}" signs in with an identifier and password, not through a redirect.`);
  }
}

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
  const { provider, driver } = await findRedirectProvider(app, providerName);
  try {
    ctx.redirect((await driver.begin(ctx, app, { redirectUri: pageCallbackUri(app, provider.name), callbackUrl })).href);
  } catch (error) {
    redirectToErrorPage(ctx, app, provider.name, error);
  }
}

/**
 * Page flow, second half (`/auth/callback/:provider`): on success the user gets a session cookie and the
 * browser goes to the callbackUrl given at the start; on failure to `/auth/error?error=<reason>`.
 */
export async function handleProviderCallback(ctx: Koa.Context, app: AppContext, providerName: string): Promise<void> {
  const { provider, driver } = await findRedirectProvider(app, providerName);
  try {
    const { profile, callbackUrl } = await driver.complete(ctx, app);
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
  const { provider, driver } = await findRedirectProvider(app, providerName);
  requireSessionMode(ctx.query.mode);
  const callbackUrl = resolveRedirectTarget(app.config.server.publicUrl, provider, redirect);
  ctx.redirect((await driver.begin(ctx, app, { redirectUri: sdkCallbackUri(app, provider.name), callbackUrl })).href);
}

/** SDK flow, second half: session cookie and redirect, or a JSON error carrying `extensions.reason`. */
export async function handleSdkCallback(ctx: Koa.Context, app: AppContext, providerName: string): Promise<void> {
  const { provider, driver } = await findRedirectProvider(app, providerName);
  const { profile, callbackUrl } = await driver.complete(ctx, app);
  await signIn(ctx, app, await findOrCreateProviderUser(app, provider, profile));
  ctx.redirect(callbackUrl);
}

/**
 * SAML's assertion consumer service (`POST /auth/login/:provider/acs`), for both flows: RelayState says
 * which one started, so a failure goes to the error page (pages) or is a JSON error (SDK); a post whose
 * RelayState does not open is a JSON error.
 */
export async function handleSamlResponse(ctx: Koa.Context, app: AppContext, providerName: string): Promise<void> {
  const provider = findProvider(app, providerName);
  if (provider.driver !== 'saml') throw new RouteNotFoundError(`Sign-in provider "${provider.name}" has no assertion consumer service.`);
  const flow = await loadSaml();
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const request = await flow.openRelayState(app, provider, body.RelayState);
  if (!request) throw new ProviderSignInError('OAuthCallback', MISSING_REQUEST_DETAILS_MESSAGE);
  try {
    const { profile, callbackUrl } = await flow.completeSamlSignIn(ctx, app, provider, request);
    await signIn(ctx, app, await findOrCreateProviderUser(app, provider, profile));
    ctx.redirect(callbackUrl);
  } catch (error) {
    if (!request.page) throw error;
    redirectToErrorPage(ctx, app, provider.name, error);
  }
}

/**
 * SAML single logout (`POST /auth/login/:provider/logout`, Directus's route): ends Tessera's session and,
 * when the user signed in with this provider and the IdP has a SingleLogoutService, sends the browser
 * there with a LogoutRequest; otherwise, and when the IdP answers (`GET …/logout`), to `redirect`.
 */
export async function startSamlLogout(ctx: Koa.Context, app: AppContext, providerName: string, redirect: unknown): Promise<void> {
  const provider = findProvider(app, providerName);
  if (provider.driver !== 'saml') throw new RouteNotFoundError(`Sign-in provider "${provider.name}" has no single logout.`);
  const target = resolveRedirectTarget(app.config.server.publicUrl, provider, redirect);
  const session = await readCookieSession(ctx, app);
  await endCookieSession(ctx, app);
  if (!session) return ctx.redirect(target);
  const user = await app.database.kysely().selectFrom('tessera_users').select(['provider', 'auth_data']).where('id', '=', session.user).executeTakeFirst();
  const profile = (user?.auth_data as { profile?: Record<string, unknown> } | null | undefined)?.profile;
  const url = user?.provider === provider.name && profile ? await (await loadSaml()).samlLogoutUrl(provider, profile, target) : null;
  ctx.redirect(url ? url.href : target);
}

/** Where the IdP's LogoutResponse lands: Tessera's session is gone already, so the browser goes on to the RelayState target. */
export function finishSamlLogout(ctx: Koa.Context, app: AppContext, providerName: string): void {
  const provider = findProvider(app, providerName);
  if (provider.driver !== 'saml') throw new RouteNotFoundError(`Sign-in provider "${provider.name}" has no single logout.`);
  let target = `${app.config.server.publicUrl}/admin`;
  try {
    target = resolveRedirectTarget(app.config.server.publicUrl, provider, ctx.query.RelayState);
  } catch {
    // A RelayState that is no page of ours: the default.
  }
  ctx.redirect(target);
}

/** Tessera's SAML service-provider metadata (`GET /auth/login/:provider/metadata`), for the IdP to read. */
export function samlMetadata(ctx: Koa.Context, app: AppContext, providerName: string): void {
  const provider = findProvider(app, providerName);
  if (provider.driver !== 'saml') throw new RouteNotFoundError(`Sign-in provider "${provider.name}" has no SAML metadata.`);
  ctx.type = 'application/samlmetadata+xml';
  ctx.body = provider.spMetadata;
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

export async function signIn(ctx: Koa.Context, app: AppContext, userId: string): Promise<void> {
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
