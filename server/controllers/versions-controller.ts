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

  // As Directus 11 answers it: the version row (read by the generic route after this one) with its `delta`,
  // the changes saved so far that the caller may read. Left out when `fields` names neither `*` nor `delta`.
  router.get('/:id', async (ctx, next) => {
    await next();
    const fields = ctx.query.fields;
    if (ctx.status !== 200 || (fields !== undefined && !/\*|\bdelta\b/.test(String(fields)))) return;
    const service = await serviceFor(ctx);
    const delta = await service.readableDelta(await service.readVersion(ctx.params.id!));
    const body = (typeof ctx.body === 'string' ? JSON.parse(ctx.body) : ctx.body) as { data: Record<string, unknown> };
    ctx.body = { ...body, data: { ...body.data, delta } };
  });

  router.get('/:id/compare', async (ctx) => {
    ctx.body = { data: await (await serviceFor(ctx)).compare(ctx.params.id!) };
  });

  router.post('/:id/promote', async (ctx) => {
    ctx.body = { data: await (await serviceFor(ctx)).promote(ctx.params.id!, ctx.request.body) };
  });

  return router;
}
