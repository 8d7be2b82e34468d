import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { parseQuery } from '../query/parse-query.ts';
import type { Query } from '../query/types.ts';
import { ItemsService, type ItemKey } from '../services/items/items-service.ts';

type Body = unknown;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keysOf(value: unknown, field = 'keys'): ItemKey[] {
  if (!Array.isArray(value) || !value.every((key) => typeof key === 'string' || typeof key === 'number')) {
    throw new InvalidPayloadError(`"${field}" must be an array of keys.`, { field });
  }
  return value as ItemKey[];
}

/**
 * `/items/:collection[/:id]`: reads with the query language, creates one or many, updates one, a batch
 * (`[{id, …}]`, `{keys, data}` or `{query, data}`) or a singleton, deletes one or a batch
 * (`[keys]`, `{keys}` or `{query}`). System collections are served on their own endpoints instead.
 */
export function itemsController(app: AppContext): Router {
  const router = new Router({ prefix: '/items' });
  const maxLimit = () => app.config.query.limitMax ?? undefined;

  async function serviceFor(ctx: Context): Promise<ItemsService> {
    const collection = ctx.params.collection!;
    const schema = await app.schema.get();
    const overview = schema.collections[collection];
    if (!overview || overview.system) throw new ForbiddenError();
    return new ItemsService(collection, { ...app.servicesContext(ctx.state.accountability), schema });
  }

  const queryOf = (ctx: Context): Query => parseQuery(ctx.querystring, { maxLimit: maxLimit() });

  /** Reads back written items with the request's `fields` (the caller sees what it may read). */
  async function respondWith(ctx: Context, service: ItemsService, keys: ItemKey[], single: boolean): Promise<void> {
    const query = queryOf(ctx);
    ctx.body = { data: single ? await service.readOne(keys[0]!, query) : await service.readMany(keys, query) };
  }

  router.get('/:collection', async (ctx) => {
    const service = await serviceFor(ctx);
    const overview = (await app.schema.get()).collections[service.collection]!;
    if (overview.singleton) {
      ctx.body = { data: await service.readSingleton(queryOf(ctx)) };
      return;
    }
    ctx.body = await service.readByQuery(queryOf(ctx));
  });

  router.get('/:collection/:id', async (ctx) => {
    const service = await serviceFor(ctx);
    ctx.body = { data: await service.readOne(ctx.params.id!, queryOf(ctx)) };
  });

  router.post('/:collection', async (ctx) => {
    const service = await serviceFor(ctx);
    const body: Body = ctx.request.body;
    if (Array.isArray(body)) return respondWith(ctx, service, await service.createMany(body), false);
    return respondWith(ctx, service, [await service.createOne(body)], true);
  });

  router.patch('/:collection', async (ctx) => {
    const service = await serviceFor(ctx);
    const overview = (await app.schema.get()).collections[service.collection]!;
    const body: Body = ctx.request.body;
    if (overview.singleton) return respondWith(ctx, service, [await service.upsertSingleton(body)], true);
    if (Array.isArray(body)) return respondWith(ctx, service, await service.updateBatch(body), false);
    if (!isObject(body) || !isObject(body.data)) throw new InvalidPayloadError('Send an array of items, { keys, data } or { query, data }.', { field: 'data' });
    if (body.keys !== undefined) return respondWith(ctx, service, await service.updateMany(keysOf(body.keys), body.data), false);
    if (isObject(body.query)) return respondWith(ctx, service, await service.updateByQuery(parseQuery(body.query, { maxLimit: maxLimit() }), body.data), false);
    throw new InvalidPayloadError('Send "keys" or "query" with "data".', { field: 'keys' });
  });

  router.patch('/:collection/:id', async (ctx) => {
    const service = await serviceFor(ctx);
    return respondWith(ctx, service, [await service.updateOne(ctx.params.id!, ctx.request.body)], true);
  });

  router.delete('/:collection', async (ctx) => {
    const service = await serviceFor(ctx);
    const body: Body = ctx.request.body;
    if (Array.isArray(body)) await service.deleteMany(keysOf(body, 'body'));
    else if (isObject(body) && body.keys !== undefined) await service.deleteMany(keysOf(body.keys));
    else if (isObject(body) && isObject(body.query)) await service.deleteByQuery(parseQuery(body.query, { maxLimit: maxLimit() }));
    else throw new InvalidPayloadError('Send an array of keys, { keys } or { query }.', { field: 'keys' });
    ctx.status = 204;
  });

  router.delete('/:collection/:id', async (ctx) => {
    const service = await serviceFor(ctx);
    await service.deleteOne(ctx.params.id!);
    ctx.status = 204;
  });

  return router;
}
