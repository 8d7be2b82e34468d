import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { AuthService } from '../auth/auth-service.ts';
import { normalizeEmail } from '../auth/email.ts';
import { validatePayload } from '../services/validate-payload.ts';

const loginSchema = yup.object({
  email: yup.string().required().transform((value: string) => normalizeEmail(value)).email().max(254),
  password: yup.string().required().max(1024),
  mode: yup.string().oneOf(['json']).default('json'),
});

/** `/auth/*`: credential sign-in (the sign-in issue adds refresh, logout, cookies and providers). */
export function authController(app: AppContext): Router {
  const router = new Router({ prefix: '/auth' });

  router.post('/login', async (ctx) => {
    const { email, password } = validatePayload(loginSchema, ctx.request.body ?? {});
    const tokens = await new AuthService(app.servicesContext(ctx.state.accountability)).login({ email, password });
    ctx.body = { data: tokens };
  });

  return router;
}
