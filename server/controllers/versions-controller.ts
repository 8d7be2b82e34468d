import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { VersionsService } from '../services/versions/versions-service.ts';

/**
 * Content versions (docs/versions.md): create, save, compare, promote. Registered before the generic
 * /versions item routes, which still serve reads, updates and deletes of tessera_versions rows.
 */
export function versionsController(app: AppContext): Router {
  const router = new Router({ prefix: '/versions' });

  async function serviceFor(ctx: Context): Promise<VersionsService> {
    return new VersionsService({ ...app.servicesContext(ctx.state.accountability), schema: await app.schema.get() });
  }

  router.post('/', async (ctx) => {
    const service = await serviceFor(ctx);
    const id = await service.create(ctx.request.body);
    ctx.body = { data: await service.readVersion(id) };
  });

  router.post('/:id/save', async (ctx) => {
    ctx.body = { data: await (await serviceFor(ctx)).save(ctx.params.id!, ctx.request.body) };
  });

  router.get('/:id/compare', async (ctx) => {
    ctx.body = { data: await (await serviceFor(ctx)).compare(ctx.params.id!) };
  });

  router.post('/:id/promote', async (ctx) => {
    ctx.body = { data: await (await serviceFor(ctx)).promote(ctx.params.id!, ctx.request.body) };
  });

  return router;
}
