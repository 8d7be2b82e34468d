import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { normalizeEmail } from '../auth/email.ts';
import { passwordResetPage, requestPasswordReset, resetPassword } from '../auth/password-reset.ts';
import { validatePayload } from '../services/validate-payload.ts';

const requestSchema = yup.object({
  email: yup
    .string()
    .required()
    .transform((value: unknown) => (typeof value === 'string' ? normalizeEmail(value) : value))
    .email()
    .max(254),
  reset_url: yup.string().max(2048),
});

const resetSchema = yup.object({
  token: yup.string().required().max(4096),
  password: yup.string().required().max(1024),
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
