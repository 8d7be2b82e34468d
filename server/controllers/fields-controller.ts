import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { FieldsService } from '../services/fields-service.ts';
import { sendJsonBytes, sendList } from './shared-list-body.ts';

/** `/fields`: the fields of every collection, read, created, updated and deleted per collection. */
export function fieldsController(app: AppContext): Router {
  const router = new Router({ prefix: '/fields' });
  const service = (accountability: Accountability) => new FieldsService(app.servicesContext(accountability), app.schema);

  router.get('/', async (ctx) => {
    await sendJsonBytes(ctx, await service(ctx.state.accountability).readAllJson());
  });
  router.get('/:collection', async (ctx) => {
    await sendList(ctx, await service(ctx.state.accountability).readAllInCollection(ctx.params.collection!));
  });
  router.post('/:collection', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).createOne(ctx.params.collection!, ctx.request.body ?? {}) };
  });
  router.patch('/:collection', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).updateMany(ctx.params.collection!, ctx.request.body) };
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
