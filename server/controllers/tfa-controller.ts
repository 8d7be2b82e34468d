import Router from '@koa/router';
import type { Context } from 'koa';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { credentialString } from '../auth/credential-fields.ts';
import { TfaService } from '../auth/tfa-service.ts';
import { ForbiddenError } from '../errors.ts';
import { validatePayload } from '../services/validate-payload.ts';

const generateSchema = yup.object({ password: credentialString(1024).required() });
const enableSchema = yup.object({ secret: credentialString(128).required(), otp: credentialString(16).required() });
const disableSchema = yup.object({ otp: credentialString(16).required() });

/** `/users/me/tfa/*`: the signed-in user sets up, enables and disables two-factor authentication. */
export function tfaController(app: AppContext): Router {
  const router = new Router({ prefix: '/users/me/tfa' });

  function serviceFor(ctx: Context): { service: TfaService; user: string } {
    const caller = ctx.state.accountability;
    if (!caller.user) throw new ForbiddenError();
    return { service: new TfaService(app.servicesContext(caller)), user: caller.user };
  }

  router.post('/generate', async (ctx) => {
    const { service, user } = serviceFor(ctx);
    const { password } = validatePayload(generateSchema, ctx.request.body ?? {});
    ctx.body = { data: await service.generate(user, password) };
  });

  router.post('/enable', async (ctx) => {
    const { service, user } = serviceFor(ctx);
    const { secret, otp } = validatePayload(enableSchema, ctx.request.body ?? {});
    await service.enable(user, secret, otp);
    ctx.status = 204;
  });

  router.post('/disable', async (ctx) => {
    const { service, user } = serviceFor(ctx);
    const { otp } = validatePayload(disableSchema, ctx.request.body ?? {});
    await service.disable(user, otp);
    ctx.status = 204;
  });

  return router;
}
