import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { credentialEmail, credentialString } from '../auth/credential-fields.ts';
import { registerUser, verificationPage, verifyRegistration } from '../auth/registration.ts';
import { validatePayload } from '../services/validate-payload.ts';

const registerSchema = yup.object({
  email: credentialEmail().required('"email" is required.'),
  password: credentialString(1024).required('"password" is required.'),
  verification_url: credentialString(2048),
  first_name: credentialString(50),
  last_name: credentialString(50),
});

/**
 * `/users/register` (public registration, Directus's route and settings) and
 * `/users/register/verify-email` (the link its e-mail carries), both for callers without an account.
 */
export function registrationController(app: AppContext): Router {
  const router = new Router({ prefix: '/users/register' });

  router.post('/', async (ctx) => {
    const { verification_url, ...input } = validatePayload(registerSchema, ctx.request.body ?? {});
    await registerUser(app, input, verificationPage(app, verification_url));
    ctx.status = 204;
  });

  // A link without a token goes to the sign-in page, as Directus's does; a verified account opens the user's page.
  router.get('/verify-email', async (ctx) => {
    const token = ctx.query.token;
    if (typeof token !== 'string' || token === '') {
      ctx.redirect(`${app.config.server.publicUrl}/admin/login`);
      return;
    }
    const id = await verifyRegistration(app, token);
    ctx.redirect(`${app.config.server.publicUrl}/admin/users/${encodeURIComponent(id)}`);
  });

  return router;
}
