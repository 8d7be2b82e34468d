import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { exportItems } from '../files/import/export-items.ts';
import { importItems } from '../files/import/import-items.ts';
import { FilesService } from '../files/files-service.ts';
import { respondWithReadBack } from './items-controller.ts';

/** `/utils/import/:collection` (CSV, JSON or NDJSON upload → items) and `/utils/export/:collection` (query → a file). */
export function importExportController(app: AppContext): Router {
  const router = new Router({ prefix: '/utils' });

  router.post('/import/:collection', async (ctx) => {
    const created = await importItems(app, ctx.state.accountability, ctx.params.collection!, ctx.req);
    ctx.body = { data: { created } };
  });

  router.post('/export/:collection', async (ctx) => {
    const id = await exportItems(app, ctx.state.accountability, ctx.params.collection!, ctx.request.body);
    const files = await new FilesService(app, ctx.state.accountability).items();
    await respondWithReadBack(ctx, () => files.readOne(id));
  });

  return router;
}
