import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { SharesService } from '../services/shares-service.ts';
import { validatePayload } from '../services/validate-payload.ts';

const authSchema = yup.object({
  share: yup.string().required().max(64),
  password: yup.string().max(1024).optional(),
});

/** `/shares/info/:id` and `/shares/auth`; share CRUD is on the shared item routes. */
export function sharesController(app: AppContext): Router {
  const router = new Router({ prefix: '/shares' });

  router.get('/info/:id', async (ctx) => {
    ctx.body = { data: await new SharesService(app.servicesContext(ctx.state.accountability)).info(ctx.params.id!) };
  });

  router.post('/auth', async (ctx) => {
    const { share, password } = validatePayload(authSchema, ctx.request.body ?? {});
    ctx.body = { data: await new SharesService(app.servicesContext(ctx.state.accountability)).authenticate(share, password) };
  });

  return router;
}
