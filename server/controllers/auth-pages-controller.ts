import Router from '@koa/router';
import type Koa from 'koa';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { AuthService } from '../auth/auth-service.ts';
import { assertCsrfToken, ensureCsrfToken } from '../auth/csrf.ts';
import { consumeSignInLink, sendSignInLink } from '../auth/email-link.ts';
import { credentialEmail, credentialString } from '../auth/credential-fields.ts';
import { processLoginAttempts } from '../auth/login-attempts.ts';
import { handleProviderCallback, startProviderSignIn } from '../auth/oidc/flow.ts';
import { findProvider, listProviders } from '../auth/oidc/providers.ts';
import { lazyModule } from '../lazy-module.ts';
import { safeCallbackUrl } from '../auth/pages/callback-url.ts';
import { signInErrorPage } from '../auth/pages/error-catalogue.ts';
import { renderErrorPage } from '../auth/pages/error-page.ts';
import { renderLinkOtpPage } from '../auth/pages/link-otp-page.ts';
import { renderSignInPage } from '../auth/pages/signin-page.ts';
import { renderSignOutPage } from '../auth/pages/signout-page.ts';
import { renderVerifyRequestPage } from '../auth/pages/verify-request-page.ts';
import { endCookieSession, readCookieSession, startCookieSession } from '../auth/session-cookie.ts';
import { deliverTokens } from '../auth/sessions-modes.ts';
import { InvalidOtpError, isTesseraError, VerificationError } from '../errors.ts';
import { readBranding } from '../mail/branding.ts';
import { validatePayload } from '../services/validate-payload.ts';

const emailSchema = yup.object({
  email: credentialEmail().required(),
});

const linkOtpSchema = yup.object({
  otp: credentialString(16).transform((value: unknown) => value || undefined),
});

const credentialsSchema = yup.object({
  email: credentialEmail().required(),
  password: credentialString(1024).required(),
  otp: credentialString(16).transform((value: unknown) => value || undefined),
});

// ldapts loads with the first directory sign-in, not at start-up.
const loadDirectoryPage = lazyModule(() => import('../auth/ldap/ldap-page.ts'));

/** `type` of each driver in `GET /auth/providers` (the sign-in pages' vocabulary: an LDAP directory takes credentials). */
const PAGE_PROVIDER_TYPES = { openid: 'oidc', oauth2: 'oauth', ldap: 'credentials', saml: 'saml' } as const;

/** Codes of sign-in failures the error page shows instead of CredentialsSignin. */
const ACCESS_DENIED_CODES = new Set(['USER_SUSPENDED', 'INVALID_IP']);

/**
 * The sign-in pages and routes under `/auth` (SPEC §2, §7, §8): server-rendered forms that work
 * without JavaScript, guarded by a double-submit CSRF token, ending in the session cookie.
 */
export function authPagesController(app: AppContext): Router {
  const router = new Router({ prefix: '/auth' });
  const publicUrl = app.config.server.publicUrl;
  const authBase = `${new URL(publicUrl).pathname.replace(/\/+$/, '')}/auth`;
  const branding = () => readBranding(app.database.kysely(), publicUrl);
  const form = (ctx: Koa.Context): Record<string, unknown> => (ctx.request.body && typeof ctx.request.body === 'object' ? (ctx.request.body as Record<string, unknown>) : {});
  const toErrorPage = (ctx: Koa.Context, code: string) => ctx.redirect(`${publicUrl}/auth/error?error=${encodeURIComponent(code)}`);

  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });

  router.get('/signin', async (ctx) => {
    const error = typeof ctx.query.error === 'string' ? signInErrorPage(ctx.query.error).messages.join(' ') : null;
    ctx.type = 'html';
    ctx.body = renderSignInPage(await branding(), {
      authBase,
      csrfToken: ensureCsrfToken(ctx, app),
      callbackUrl: safeCallbackUrl(ctx.query.callbackUrl, publicUrl),
      email: Boolean(app.mailer),
      providers: listProviders(app),
      error,
    });
  });

  router.post('/signin/:provider', async (ctx) => {
    const body = form(ctx);
    assertCsrfToken(ctx, body.csrfToken);
    const callbackUrl = safeCallbackUrl(body.callbackUrl, publicUrl);
    const provider = ctx.params.provider!;
    if (provider === 'credentials') {
      // Credentials are posted to the callback; a post here just shows the form.
      ctx.redirect(`${publicUrl}/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    } else if (provider === 'email') {
      const { email } = validatePayload(emailSchema, body);
      try {
        await sendSignInLink(app, email, callbackUrl);
      } catch (error) {
        app.logger.error({ err: error }, 'sending a sign-in link failed');
        return toErrorPage(ctx, 'EmailSignin');
      }
      ctx.redirect(`${publicUrl}/auth/verify-request?provider=email&type=email`);
    } else if (findProvider(app, provider).driver === 'ldap') {
      // A directory's form posts to the callback, like credentials; a post here just shows the form.
      ctx.redirect(`${publicUrl}/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    } else {
      await startProviderSignIn(ctx, app, provider, callbackUrl);
    }
  });

  const callback = async (ctx: Koa.Context) => {
    const provider = ctx.params.provider!;
    const input = ctx.method === 'POST' ? form(ctx) : (ctx.query as Record<string, unknown>);
    if (provider === 'credentials') {
      if (ctx.method !== 'POST') return ctx.redirect(`${publicUrl}/auth/signin`);
      assertCsrfToken(ctx, input.csrfToken);
      const credentials = validatePayload(credentialsSchema, input);
      try {
        const tokens = await new AuthService(app.servicesContext(ctx.state.accountability)).login(credentials);
        deliverTokens(ctx, app, tokens, 'session');
      } catch (error) {
        if (!isTesseraError(error) || error.status >= 500) throw error;
        return toErrorPage(ctx, ACCESS_DENIED_CODES.has(error.code) ? 'AccessDenied' : 'CredentialsSignin');
      }
      return ctx.redirect(safeCallbackUrl(input.callbackUrl, publicUrl));
    }
    if (provider === 'email') {
      const link = { token: String(input.token ?? ''), email: String(input.email ?? ''), callbackUrl: safeCallbackUrl(input.callbackUrl, publicUrl) };
      // The mailed link opens with GET; the code of a user with TFA comes back in a form post from the
      // card below, guarded like every form here (else a foreign page could sign a browser in: login CSRF).
      let otp: string | null = null;
      if (ctx.method === 'POST') {
        assertCsrfToken(ctx, input.csrfToken);
        otp = validatePayload(linkOtpSchema, input).otp ?? null;
      }
      let userId: string;
      try {
        userId = await consumeSignInLink(app, link.email, link.token, { otp, attempts: app.servicesContext(ctx.state.accountability).loginAttempts ?? processLoginAttempts() });
      } catch (error) {
        if (error instanceof VerificationError) return toErrorPage(ctx, 'Verification');
        if (!(error instanceof InvalidOtpError)) throw error;
        // First opening: ask for the code. A refused code: the card again for a browser, the error for an API client.
        if (ctx.method === 'POST' && ctx.accepts('json', 'html') !== 'html') throw error;
        ctx.status = ctx.method === 'POST' ? 401 : 200;
        ctx.type = 'html';
        ctx.body = renderLinkOtpPage(await branding(), { authBase, csrfToken: ensureCsrfToken(ctx, app), ...link, error: ctx.method === 'POST' ? error.message : null });
        return;
      }
      try {
        await startCookieSession(ctx, app, userId);
      } catch (error) {
        if (!isTesseraError(error) || error.status >= 500) throw error;
        return toErrorPage(ctx, 'AccessDenied');
      }
      return ctx.redirect(link.callbackUrl);
    }
    const configured = findProvider(app, provider);
    if (configured.driver === 'ldap') {
      if (ctx.method !== 'POST') return ctx.redirect(`${publicUrl}/auth/signin`);
      return (await loadDirectoryPage()).handleDirectoryForm(ctx, app, configured, input);
    }
    await handleProviderCallback(ctx, app, provider);
  };
  router.get('/callback/:provider', callback);
  router.post('/callback/:provider', callback);

  router.get('/signout', async (ctx) => {
    ctx.type = 'html';
    ctx.body = renderSignOutPage(await branding(), { authBase, csrfToken: ensureCsrfToken(ctx, app), callbackUrl: safeCallbackUrl(ctx.query.callbackUrl, publicUrl) });
  });

  router.post('/signout', async (ctx) => {
    const body = form(ctx);
    assertCsrfToken(ctx, body.csrfToken);
    await endCookieSession(ctx, app);
    ctx.redirect(safeCallbackUrl(body.callbackUrl, publicUrl));
  });

  router.get('/verify-request', async (ctx) => {
    ctx.type = 'html';
    ctx.body = renderVerifyRequestPage(await branding(), publicUrl);
  });

  router.get('/error', async (ctx) => {
    const page = signInErrorPage(ctx.query.error);
    ctx.status = page.status;
    ctx.type = 'html';
    ctx.body = renderErrorPage(await branding(), page, authBase);
  });

  router.get('/session', async (ctx) => {
    const session = await readCookieSession(ctx, app);
    ctx.body = session
      ? {
          user: { id: session.user, name: session.name, email: session.email, image: session.avatar ? `${publicUrl}/assets/${encodeURIComponent(session.avatar)}` : null },
          expires: session.expires.toISOString(),
        }
      : {};
  });

  router.get('/providers', (ctx) => {
    const entry = (id: string, name: string, type: string) => ({ id, name, type, signinUrl: `${publicUrl}/auth/signin/${id}`, callbackUrl: `${publicUrl}/auth/callback/${id}` });
    const providers: Record<string, ReturnType<typeof entry>> = { credentials: entry('credentials', 'Credentials', 'credentials') };
    if (app.mailer) providers.email = entry('email', 'Email', 'email');
    for (const provider of listProviders(app)) providers[provider.name] = entry(provider.name, provider.label, PAGE_PROVIDER_TYPES[provider.driver]);
    ctx.body = providers;
  });

  // Directus's listing of the configured providers (its admin and SDK read it).
  router.get('/', (ctx) => {
    ctx.body = { data: listProviders(app).map(({ name, driver, label, icon }) => ({ name, driver, label, icon })), disableDefault: false };
  });

  router.get('/csrf', (ctx) => {
    ctx.body = { csrfToken: ensureCsrfToken(ctx, app) };
  });

  return router;
}
