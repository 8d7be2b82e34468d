import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { AuthService } from '../auth/auth-service.ts';
import { credentialEmail, credentialString } from '../auth/credential-fields.ts';
import { assertSameSiteCredentialPost } from '../auth/login-csrf.ts';
import { AUTH_MODES, clearModeCookie, deliverTokens, readRefreshToken, resolveMode } from '../auth/sessions-modes.ts';
import { validatePayload } from '../services/validate-payload.ts';

/** Directus's words for a bad sign-in body (its joi messages after "Invalid payload."), which its clients and test suite match. */
const invalid = (reason: string) => `Invalid payload. ${reason}.`;

/** A required credential as joi words it: absent is "is required", an empty string "is not allowed to be empty". */
function present(schema: yup.StringSchema<string | undefined>, field: string) {
  return schema.defined(invalid(`"${field}" is required`)).test('not-empty', invalid(`"${field}" is not allowed to be empty`), (value) => value !== '');
}

const loginSchema = yup.object({
  email: present(credentialEmail({ type: invalid('"email" must be a string'), email: invalid('"email" must be a valid email') }), 'email'),
  password: present(credentialString(1024, { type: invalid('"password" must be a string') }), 'password'),
  otp: credentialString(16, { type: invalid('"otp" must be a string') }).nullable(),
  mode: credentialString(16, { type: invalid('"mode" must be a string') }).oneOf(AUTH_MODES, invalid('"mode" must be one of [cookie, json, session]')).default('json'),
});

const refreshSchema = yup.object({
  refresh_token: credentialString(512),
  mode: credentialString(16).oneOf(AUTH_MODES),
});

/** `/auth/*`: credential sign-in, refresh and logout in json, cookie or session mode (server/auth/sessions-modes.ts). */
export function authController(app: AppContext): Router {
  const router = new Router({ prefix: '/auth' });

  router.post('/login', async (ctx) => {
    assertSameSiteCredentialPost(ctx, app);
    const { email, password, otp, mode } = validatePayload(loginSchema, ctx.request.body ?? {});
    const tokens = await new AuthService(app.servicesContext(ctx.state.accountability)).login({ email, password, otp });
    ctx.body = { data: deliverTokens(ctx, app, tokens, mode) };
  });

  router.post('/refresh', async (ctx) => {
    assertSameSiteCredentialPost(ctx, app);
    const body = validatePayload(refreshSchema, ctx.request.body ?? {});
    const mode = resolveMode(ctx, body);
    const tokens = await new AuthService(app.servicesContext(ctx.state.accountability)).refresh(readRefreshToken(ctx, body.refresh_token, mode));
    ctx.body = { data: deliverTokens(ctx, app, tokens, mode) };
  });

  router.post('/logout', async (ctx) => {
    const body = validatePayload(refreshSchema, ctx.request.body ?? {});
    const mode = resolveMode(ctx, body);
    await new AuthService(app.servicesContext(ctx.state.accountability)).logout(readRefreshToken(ctx, body.refresh_token, mode));
    clearModeCookie(ctx, app, mode);
    ctx.status = 204;
  });

  return router;
}
