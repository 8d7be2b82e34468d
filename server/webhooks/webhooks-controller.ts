import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, InvalidQueryError } from '../errors.ts';
import { readDeliveries } from './webhook-deliveries.ts';

/** `GET /webhooks/:id/deliveries`: an administrator reads a webhook's delivery log and its queued deliveries. */
export function webhooksController(app: AppContext): Router {
  const router = new Router();
  router.get('/webhooks/:id/deliveries', async (ctx) => {
    if (!ctx.state.accountability.admin) throw new ForbiddenError();
    const id = Number(ctx.params.id);
    if (!Number.isInteger(id) || id < 1) throw new ForbiddenError();
    const limit = ctx.query.limit === undefined ? 100 : Number(ctx.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InvalidQueryError('"limit" must be an integer from 1 to 1000.', { field: 'limit' });
    const { attempts, queued } = await readDeliveries(app.database.kysely(), id, limit);
    ctx.body = { data: attempts, meta: { queued } };
  });
  return router;
}
