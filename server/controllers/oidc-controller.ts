import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { credentialString } from '../auth/credential-fields.ts';
import { assertSameSiteCredentialPost } from '../auth/login-csrf.ts';
import { finishSamlLogout, handleSamlResponse, handleSdkCallback, samlMetadata, startSamlLogout, startSdkSignIn } from '../auth/oidc/flow.ts';
import { findProvider } from '../auth/oidc/providers.ts';
import { AUTH_MODES, deliverTokens } from '../auth/sessions-modes.ts';
import { lazyModule } from '../lazy-module.ts';
import { RouteNotFoundError } from '../errors.ts';
import { validatePayload } from '../services/validate-payload.ts';

// ldapts loads with the first directory sign-in, not at start-up.
const loadLdapLogin = lazyModule(() => import('../auth/ldap/ldap-login.ts'));

const directoryLoginSchema = yup.object({
  identifier: credentialString(254).required(),
  password: credentialString(1024).required(),
  otp: credentialString(16).nullable(),
  mode: credentialString(16).oneOf(AUTH_MODES).default('json'),
});

/**
 * SDK-style provider sign-in: `GET /auth/login/:provider?redirect=` sends the browser to an OpenID or
 * OAuth 2.0 provider, `GET /auth/login/:provider/callback` completes it with a session cookie and a
 * redirect; `POST /auth/login/:provider` signs in with a directory (LDAP) identifier and password; a SAML
 * provider's IdP posts to `POST /auth/login/:provider/acs`, and `GET /auth/login/:provider/metadata` is
 * Tessera's SAML metadata.
 */
export function oidcController(app: AppContext): Router {
  const router = new Router({ prefix: '/auth/login' });

  router.get('/:provider', async (ctx) => {
    await startSdkSignIn(ctx, app, ctx.params.provider!, ctx.query.redirect);
  });

  router.get('/:provider/callback', async (ctx) => {
    await handleSdkCallback(ctx, app, ctx.params.provider!);
  });

  router.get('/:provider/metadata', (ctx) => {
    samlMetadata(ctx, app, ctx.params.provider!);
  });

  // The IdP's cross-site form post; RelayState (encrypted, one use) stands in for a CSRF token.
  router.post('/:provider/acs', async (ctx) => {
    await handleSamlResponse(ctx, app, ctx.params.provider!);
  });

  // SAML single logout: a cross-site post carries no SameSite=Lax session cookie, so it can end nothing.
  router.post('/:provider/logout', async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    await startSamlLogout(ctx, app, ctx.params.provider!, body.redirect ?? ctx.query.redirect);
  });

  router.get('/:provider/logout', (ctx) => {
    finishSamlLogout(ctx, app, ctx.params.provider!);
  });

  router.post('/:provider', async (ctx) => {
    const provider = findProvider(app, ctx.params.provider!);
    if (provider.driver !== 'ldap') throw new RouteNotFoundError(`Sign-in provider "${provider.name}" signs in through a redirect: GET /auth/login/${provider.name}.`);
    assertSameSiteCredentialPost(ctx, app);
    const { identifier, password, otp, mode } = validatePayload(directoryLoginSchema, ctx.request.body ?? {});
    const tokens = await (await loadLdapLogin()).loginWithDirectory(app, ctx.state.accountability, provider, { identifier, password, otp });
    ctx.body = { data: deliverTokens(ctx, app, tokens, mode) };
  });

  return router;
}
