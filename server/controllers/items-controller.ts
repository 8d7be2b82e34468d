import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { classifyDatabaseFault } from '../database/database-faults.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { parseQuery } from '../query/parse-query.ts';
import type { Query } from '../query/types.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { ItemsService, type ItemKey } from '../services/items/items-service.ts';
import { exportFormat } from '../services/export/export-format.ts';
import { openExport } from '../services/export/export-stream.ts';
import { readVersioned } from './versioned-read.ts';
import { etagOf, type ExpectedVersions } from '../services/items/expected-versions.ts';
import { expectedVersions, readsOwnRowOnly, sendVersion, withCurrentItems } from './item-versions.ts';

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
 * Answers a write with what `read` returns. A restricted caller that may write but not read the result
 * gets 204: the write happened, and nothing is revealed. The write has committed by now, so a read-back
 * the database cannot answer (an outage in between) must not report it as failed: the answer is then
 * `written` (the keys), or 204 when there is none to give.
 */
export async function respondWithReadBack(ctx: Context, read: () => Promise<unknown>, written?: () => unknown): Promise<void> {
  try {
    ctx.body = { data: await read() };
  } catch (error) {
    if (classifyDatabaseFault(error) === 'unavailable') {
      ctx.state.logger?.warn({ err: error }, 'write committed, read-back failed: answering the keys');
      if (written) ctx.body = { data: written() };
      else ctx.status = 204;
      return;
    }
    if (!(error instanceof ForbiddenError) || ctx.state.accountability.admin) throw error;
    ctx.status = 204;
  }
}

/** Which collection a request addresses; throws FORBIDDEN for one it may not use on this route. */
export type CollectionResolver = (ctx: Context, schema: SchemaOverview) => string;

/**
 * Registers the item routes on `router` (paths relative to it): reads with the query language, creates
 * one or many, updates one, a batch (`[{id, …}]`, `{keys, data}` or `{query, data}`) or a singleton,
 * deletes one or a batch (`[keys]`, `{keys}` or `{query}`). /items and the system endpoints share them.
 */
export function registerItemRoutes(app: AppContext, router: Router, base: string, resolve: CollectionResolver): Router {
  const maxLimit = () => app.config.query.limitMax ?? undefined;

  async function serviceFor(ctx: Context): Promise<ItemsService> {
    const schema = await app.schema.get();
    return new ItemsService(resolve(ctx, schema), { ...app.servicesContext(ctx.state.accountability), schema });
  }

  const queryOf = (ctx: Context): Query => parseQuery(ctx.querystring, { maxLimit: maxLimit() });

  /**
   * Reads back written items with the request's `fields` (the caller sees what it may read); one item with
   * its new ETag when the write named a version (If-Match): a client that keeps versions gets the next one,
   * and writes that name none pay nothing for it. An update with If-Match returned the version it left
   * (`written`), so the read-back need not hash the row again.
   */
  async function respondWith(ctx: Context, service: ItemsService, keys: ItemKey[], single: boolean, written?: Map<string, string>): Promise<void> {
    const query = queryOf(ctx);
    const keyed = (key: ItemKey) => ({ [service.primaryKeyField]: key });
    const readOne = async () => {
      const version = written?.get(String(keys[0]));
      if (version !== undefined || !ctx.get('If-Match')) {
        const [item] = await service.readMany([keys[0]!], query);
        if (!item) throw new ForbiddenError();
        if (version !== undefined) ctx.set('ETag', etagOf(version));
        return item;
      }
      const { items, versions } = await service.readManyVersioned([keys[0]!], query);
      if (!items[0]) throw new ForbiddenError();
      ctx.set('ETag', etagOf(versions[0]!));
      return items[0];
    };
    await respondWithReadBack(
      ctx,
      () => (single ? readOne() : service.readMany(keys, query)),
      () => (single ? keyed(keys[0]!) : keys.map(keyed)),
    );
  }

  /** A write with the request's If-Match (docs/collaboration.md, "No lost updates"), answered with the versions it left. */
  const conditional = async (ctx: Context, service: ItemsService, single: boolean, write: (expected: ExpectedVersions | undefined) => Promise<ItemKey[]>) => {
    const expected = expectedVersions(ctx);
    const keys = expected ? await withCurrentItems(ctx, service, queryOf(ctx), single, () => write(expected)) : await write(undefined);
    return { keys, written: expected?.written };
  };

  router.get(base, async (ctx) => {
    const service = await serviceFor(ctx);
    const overview = (await app.schema.get()).collections[service.collection]!;
    if (overview.singleton) {
      const query = queryOf(ctx);
      const singleton = await service.readSingletonVersioned(query);
      if (singleton && sendVersion(ctx, singleton.version, readsOwnRowOnly(overview, query))) return;
      ctx.body = { data: singleton?.item ?? null };
      return;
    }
    if (ctx.state.searchKeys) {
      // SEARCH { keys, query }: those items, as Directus reads them.
      ctx.body = { data: await service.readMany(ctx.state.searchKeys as ItemKey[], queryOf(ctx)) };
      return;
    }
    if (ctx.query.export === undefined) {
      const { data, meta } = await service.readJsonByQuery(queryOf(ctx));
      ctx.type = 'application/json';
      ctx.body = `{"data":[${data.join(',')}]${meta ? `,"meta":${JSON.stringify(meta)}` : ''}}`;
      return;
    }
    // Streamed (server/services/export): a failure once the download has begun aborts the connection, so the
    // client sees an incomplete transfer rather than a file that looks whole (docs/api.md).
    const format = exportFormat(ctx.query.export);
    const file = await openExport(app, ctx.state.accountability, service.collection, queryOf(ctx), format);
    ctx.type = file.type;
    ctx.attachment(`${service.collection}-${new Date().toISOString().slice(0, 10)}.${format}`);
    file.body.once('error', (error) => ctx.state.logger?.error({ err: error }, 'export failed midway: connection aborted'));
    ctx.body = file.body;
  });

  router.get(`${base}/:id`, async (ctx) => {
    const service = await serviceFor(ctx);
    if (typeof ctx.query.version === 'string' && ctx.query.version !== '' && ctx.query.version !== 'main') {
      ctx.body = { data: await readVersioned(app, ctx, service, queryOf(ctx), ctx.query.version) };
      return;
    }
    const query = queryOf(ctx);
    const { item, version } = await service.readOneJsonVersioned(ctx.params.id!, query);
    if (sendVersion(ctx, version, readsOwnRowOnly((await app.schema.get()).collections[service.collection]!, query))) return;
    ctx.type = 'application/json';
    ctx.body = `{"data":${item}}`;
  });

  router.post(base, async (ctx) => {
    const service = await serviceFor(ctx);
    const body: Body = ctx.request.body;
    if (Array.isArray(body)) return respondWith(ctx, service, await service.createMany(body), false);
    return respondWith(ctx, service, [await service.createOne(body)], true);
  });

  router.patch(base, async (ctx) => {
    const service = await serviceFor(ctx);
    const overview = (await app.schema.get()).collections[service.collection]!;
    const body: Body = ctx.request.body;
    if (overview.singleton) {
      const { keys, written } = await conditional(ctx, service, true, async (expected) => [await service.upsertSingleton(body, expected)]);
      return respondWith(ctx, service, keys, true, written);
    }
    if (Array.isArray(body)) return respondWith(ctx, service, (await conditional(ctx, service, false, (expected) => service.updateBatch(body, expected))).keys, false);
    if (!isObject(body) || !isObject(body.data)) throw new InvalidPayloadError('Send an array of items, { keys, data } or { query, data }.', { field: 'data' });
    const data = body.data;
    if (body.keys !== undefined) {
      const keys = keysOf(body.keys);
      return respondWith(ctx, service, (await conditional(ctx, service, false, (expected) => service.updateMany(keys, data, expected))).keys, false);
    }
    if (isObject(body.query)) {
      const query = parseQuery(body.query, { maxLimit: maxLimit() });
      return respondWith(ctx, service, (await conditional(ctx, service, false, (expected) => service.updateByQuery(query, data, expected))).keys, false);
    }
    throw new InvalidPayloadError('Send "keys" or "query" with "data".', { field: 'keys' });
  });

  router.patch(`${base}/:id`, async (ctx) => {
    const service = await serviceFor(ctx);
    const { keys, written } = await conditional(ctx, service, true, async (expected) => [await service.updateOne(ctx.params.id!, ctx.request.body, expected)]);
    return respondWith(ctx, service, keys, true, written);
  });

  router.delete(base, async (ctx) => {
    const service = await serviceFor(ctx);
    const body: Body = ctx.request.body;
    if (Array.isArray(body)) {
      const keys = keysOf(body, 'body');
      await conditional(ctx, service, false, (expected) => service.deleteMany(keys, expected));
    } else if (isObject(body) && body.keys !== undefined) {
      const keys = keysOf(body.keys);
      await conditional(ctx, service, false, (expected) => service.deleteMany(keys, expected));
    } else if (isObject(body) && isObject(body.query)) {
      const query = parseQuery(body.query, { maxLimit: maxLimit() });
      await conditional(ctx, service, false, (expected) => service.deleteByQuery(query, expected));
    } else throw new InvalidPayloadError('Send an array of keys, { keys } or { query }.', { field: 'keys' });
    ctx.status = 204;
  });

  router.delete(`${base}/:id`, async (ctx) => {
    const service = await serviceFor(ctx);
    await conditional(ctx, service, true, async (expected) => [await service.deleteOne(ctx.params.id!, expected)]);
    ctx.status = 204;
  });

  return router;
}

/** `/items/:collection[/:id]` for user collections; system collections are served on their own endpoints. */
export function itemsController(app: AppContext): Router {
  const router = new Router({ prefix: '/items' });
  return registerItemRoutes(app, router, '/:collection', (ctx, schema) => {
    const collection = ctx.params.collection!;
    const overview = schema.collections[collection];
    if (!overview || overview.system || !overview.table) throw new ForbiddenError();
    return collection;
  });
}
