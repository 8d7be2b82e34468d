import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { RelationsService } from '../services/relations-service.ts';
import { sendList } from './shared-list-body.ts';

/** `/relations`: every relation, those of a collection, and one per field. */
export function relationsController(app: AppContext): Router {
  const router = new Router({ prefix: '/relations' });
  const service = (accountability: Accountability) => new RelationsService(app.servicesContext(accountability), app.schema);

  router.get('/', async (ctx) => {
    await sendList(ctx, await service(ctx.state.accountability).readAll());
  });
  router.post('/', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).createOne(ctx.request.body ?? {}) };
  });
  router.get('/:collection', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).readAllInCollection(ctx.params.collection!) };
  });
  router.get('/:collection/:field', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).readOne(ctx.params.collection!, ctx.params.field!) };
  });
  router.patch('/:collection/:field', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).updateOne(ctx.params.collection!, ctx.params.field!, ctx.request.body ?? {}) };
  });
  router.delete('/:collection/:field', async (ctx) => {
    await service(ctx.state.accountability).deleteOne(ctx.params.collection!, ctx.params.field!);
    ctx.status = 204;
  });

  return router;
}
