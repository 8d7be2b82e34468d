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

const refreshSchema = yup.object({
  refresh_token: yup.string().required().max(512),
  mode: yup.string().oneOf(['json']).default('json'),
});

/** `/auth/*`: credential sign-in, refresh and logout in JSON mode (the sign-in issue adds cookies, sessions and providers). */
export function authController(app: AppContext): Router {
  const router = new Router({ prefix: '/auth' });

  router.post('/login', async (ctx) => {
    const { email, password } = validatePayload(loginSchema, ctx.request.body ?? {});
    const tokens = await new AuthService(app.servicesContext(ctx.state.accountability)).login({ email, password });
    ctx.body = { data: tokens };
  });

  router.post('/refresh', async (ctx) => {
    const { refresh_token } = validatePayload(refreshSchema, ctx.request.body ?? {});
    ctx.body = { data: await new AuthService(app.servicesContext(ctx.state.accountability)).refresh(refresh_token) };
  });

  router.post('/logout', async (ctx) => {
    const { refresh_token } = validatePayload(refreshSchema, ctx.request.body ?? {});
    await new AuthService(app.servicesContext(ctx.state.accountability)).logout(refresh_token);
    ctx.status = 204;
  });

  return router;
}
