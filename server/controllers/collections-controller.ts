import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { CollectionsService } from '../services/collections-service.ts';
import { sendList } from './shared-list-body.ts';

/** `/collections`: list, read, create, update and delete collections. */
export function collectionsController(app: AppContext): Router {
  const router = new Router({ prefix: '/collections' });
  const service = (accountability: Accountability) => new CollectionsService(app.servicesContext(accountability), app.schema);

  router.get('/', async (ctx) => {
    await sendList(ctx, await service(ctx.state.accountability).readAll());
  });
  router.post('/', async (ctx) => {
    const body = ctx.request.body ?? {};
    ctx.body = { data: Array.isArray(body) ? await service(ctx.state.accountability).createMany(body) : await service(ctx.state.accountability).createOne(body) };
  });
  router.patch('/', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).updateMany(ctx.request.body) };
  });
  router.get('/:collection', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).readOne(ctx.params.collection!) };
  });
  router.patch('/:collection', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).updateOne(ctx.params.collection!, ctx.request.body ?? {}) };
  });
  router.delete('/:collection', async (ctx) => {
    await service(ctx.state.accountability).deleteOne(ctx.params.collection!);
    ctx.status = 204;
  });

  return router;
}
