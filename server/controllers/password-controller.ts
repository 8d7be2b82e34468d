import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { credentialEmail, credentialString } from '../auth/credential-fields.ts';
import { passwordResetPage, requestPasswordReset, resetPassword } from '../auth/password-reset.ts';
import { validatePayload } from '../services/validate-payload.ts';

const requestSchema = yup.object({
  email: credentialEmail().required(),
  reset_url: credentialString(2048),
});

const resetSchema = yup.object({
  token: credentialString(4096).required(),
  password: credentialString(1024).required(),
});

/** `/auth/password/request` and `/auth/password/reset`: forgotten passwords, by e-mail. */
export function passwordController(app: AppContext): Router {
  const router = new Router({ prefix: '/auth/password' });

  // Always 204, whether or not the address belongs to someone (no enumeration); the mail goes out later.
  router.post('/request', async (ctx) => {
    const { email, reset_url } = validatePayload(requestSchema, ctx.request.body ?? {});
    requestPasswordReset(app, email, passwordResetPage(app, reset_url));
    ctx.status = 204;
  });

  router.post('/reset', async (ctx) => {
    const { token, password } = validatePayload(resetSchema, ctx.request.body ?? {});
    await resetPassword(app, token, password);
    ctx.status = 204;
  });

  return router;
}
