import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { InvalidPayloadError } from '../errors.ts';
import { FoldersService } from '../files/folders-service.ts';
import { parseQuery } from '../query/parse-query.ts';
import { ItemsService, type ItemKey } from '../services/items/items-service.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyList(value: unknown): ItemKey[] {
  if (!Array.isArray(value) || !value.every((key) => typeof key === 'string' || typeof key === 'number')) throw new InvalidPayloadError('"keys" must be an array of keys.', { field: 'keys' });
  return value as ItemKey[];
}

/**
 * `/folders` moves and deletes: a move into the folder's own subtree is refused, and deletes move the
 * folder's files and subfolders to its parent (or the root). Everything else is the shared item routes
 * (system-collections-controller), which these handlers pass on to.
 */
export function foldersController(app: AppContext): Router {
  const router = new Router();
  const maxLimit = () => app.config.query.limitMax ?? undefined;
  const queryKeys = async (accountability: Accountability, query: Record<string, unknown>) =>
    new ItemsService('tessera_folders', { ...app.servicesContext(accountability), schema: await app.schema.get() }).keysByQuery(parseQuery(query, { maxLimit: maxLimit() }));

  router.patch('/folders/:id', async (ctx, next) => {
    const body = ctx.request.body;
    if (isObject(body) && 'parent' in body) await new FoldersService(app, ctx.state.accountability).assertMovable([ctx.params.id!], body.parent);
    await next();
  });

  router.patch('/folders', async (ctx, next) => {
    const body = ctx.request.body;
    const folders = new FoldersService(app, ctx.state.accountability);
    if (Array.isArray(body)) {
      for (const item of body) if (isObject(item) && 'parent' in item && item.id !== undefined) await folders.assertMovable([item.id as ItemKey], item.parent);
    } else if (isObject(body) && isObject(body.data) && 'parent' in body.data) {
      const keys = body.keys !== undefined ? keyList(body.keys) : isObject(body.query) ? await queryKeys(ctx.state.accountability, body.query) : [];
      await folders.assertMovable(keys, body.data.parent);
    }
    await next();
  });

  router.delete('/folders/:id', async (ctx) => {
    await new FoldersService(app, ctx.state.accountability).delete([ctx.params.id!]);
    ctx.status = 204;
  });

  router.delete('/folders', async (ctx) => {
    const body = ctx.request.body;
    let keys: ItemKey[];
    if (Array.isArray(body)) keys = keyList(body);
    else if (isObject(body) && body.keys !== undefined) keys = keyList(body.keys);
    else if (isObject(body) && isObject(body.query)) keys = await queryKeys(ctx.state.accountability, body.query);
    else throw new InvalidPayloadError('Send an array of keys, { keys } or { query }.', { field: 'keys' });
    await new FoldersService(app, ctx.state.accountability).delete(keys);
    ctx.status = 204;
  });

  return router;
}
