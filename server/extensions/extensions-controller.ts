import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, InvalidPayloadError, RouteNotFoundError } from '../errors.ts';
import { appExtensions, appSourceFile } from './app-sources.ts';
import type { ListedExtension } from './extension-manager.ts';

/** An extension in Directus's shape (`{ id, bundle, schema, meta }`), with Tessera's load status beside it. */
export function extensionResponse(extension: ListedExtension): Record<string, unknown> {
  const local = extension.source === 'local';
  const schema = extension.type
    ? extension.bundle
      ? { type: extension.type, name: extension.name, local }
      : {
          type: extension.type,
          name: extension.name,
          version: extension.version,
          local,
          host: extension.host,
          ...(extension.type === 'bundle' ? { entries: extension.entries, partial: true } : {}),
          ...(extension.manifest?.sandbox ? { sandbox: extension.manifest.sandbox } : {}),
        }
    : null;
  return {
    id: extension.id,
    bundle: extension.bundle,
    schema,
    meta: { enabled: extension.enabled, folder: extension.folder, source: extension.source, bundle: extension.bundle },
    status: extension.status,
    error: extension.error,
  };
}

/**
 * `GET /extensions` and `PATCH /extensions/:id` (`{ meta: { enabled } }`), for administrators. A toggle
 * reloads this instance's extensions at once and, through the schema cache's fan-out, every other instance's.
 */
export function extensionsController(app: AppContext): Router {
  const router = new Router();
  // The admin's extensions, for everyone who may use the admin: their list, then their modules' files.
  router.get('/extensions/app', (ctx) => {
    if (!ctx.state.accountability.app) throw new ForbiddenError();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: appExtensions(app.extensions.list()) };
  });
  router.get('/extensions/app/:id/*file', async (ctx) => {
    if (!ctx.state.accountability.app) throw new ForbiddenError();
    const extension = app.extensions.list().find((candidate) => candidate.id === ctx.params.id && candidate.bundle === null);
    const file = extension ? await appSourceFile(extension, [ctx.params.file ?? ''].flat().join('/')) : null;
    if (!file) throw new RouteNotFoundError(`Route ${ctx.path} doesn't exist.`);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('ETag', file.etag);
    ctx.type = file.type;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.length = file.size;
    ctx.body = file.open();
  });
  router.get('/extensions', (ctx) => {
    if (!ctx.state.accountability.admin) throw new ForbiddenError();
    ctx.body = { data: app.extensions.list().map(extensionResponse) };
  });
  router.patch('/extensions/:id', async (ctx) => {
    if (!ctx.state.accountability.admin) throw new ForbiddenError();
    const extension = app.extensions.list().find((candidate) => candidate.id === ctx.params.id);
    if (!extension) throw new ForbiddenError();
    const body = (ctx.request.body ?? {}) as { meta?: { enabled?: unknown }; enabled?: unknown };
    const enabled = body.meta && typeof body.meta === 'object' ? body.meta.enabled : body.enabled;
    if (typeof enabled !== 'boolean') throw new InvalidPayloadError('"meta.enabled" must be true or false.', { field: 'meta.enabled' });
    await app.database.kysely().updateTable('tessera_extensions').set({ enabled }).where('id', '=', extension.id).execute();
    await app.extensions.reload();
    app.schema.invalidate();
    const updated = app.extensions.list().find((candidate) => candidate.id === extension.id) ?? { ...extension, enabled };
    ctx.body = { data: extensionResponse(updated) };
  });
  return router;
}
