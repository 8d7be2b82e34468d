import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { handleSdkCallback, startSdkSignIn } from '../auth/oidc/flow.ts';

/**
 * SDK-style OpenID Connect sign-in: `GET /auth/login/:provider?redirect=` sends the browser to the
 * provider, `GET /auth/login/:provider/callback` completes it with a session cookie and a redirect.
 */
export function oidcController(app: AppContext): Router {
  const router = new Router({ prefix: '/auth/login' });

  router.get('/:provider', async (ctx) => {
    await startSdkSignIn(ctx, app, ctx.params.provider!, ctx.query.redirect);
  });

  router.get('/:provider/callback', async (ctx) => {
    await handleSdkCallback(ctx, app, ctx.params.provider!);
  });

  return router;
}
