import Router from '@koa/router';
import type { Context } from 'koa';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { FailedValidationError, InvalidPayloadError, UnsupportedMediaTypeError } from '../errors.ts';
import { assertClientFields } from '../files/file-fields.ts';
import { FilesService } from '../files/files-service.ts';
import { importFromUrl } from '../files/import/import-from-url.ts';
import { isMultipart } from '../files/upload/read-multipart.ts';
import { parseQuery } from '../query/parse-query.ts';
import type { ItemKey } from '../services/items/items-service.ts';
import { validatePayload } from '../services/validate-payload.ts';
import { registerItemRoutes, respondWithReadBack } from './items-controller.ts';
import { expectedVersions, withCurrentItems } from './item-versions.ts';

const importSchema = yup.object({
  url: yup.string().required('"url" is required'),
  data: yup.object().default({}),
});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys from a batch delete body: `[keys]` or `{ keys }`. */
function deleteKeys(body: unknown): ItemKey[] | null {
  const keys = Array.isArray(body) ? body : isObject(body) ? body.keys : undefined;
  if (keys === undefined) return null;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string' || typeof key === 'number')) throw new InvalidPayloadError('"keys" must be an array of keys.', { field: 'keys' });
  return keys as ItemKey[];
}

/**
 * `/files`: multipart uploads (several files, fields before each file), imports from URLs, content
 * replacement, deletes that remove the content; reads and metadata updates use the shared item routes.
 */
export function filesController(app: AppContext): Router {
  const router = new Router();
  const maxLimit = () => app.config.query.limitMax ?? undefined;
  const readBack = async (ctx: Context, files: FilesService, keys: ItemKey[], single: boolean) => {
    const service = await files.items();
    const query = parseQuery(ctx.querystring, { maxLimit: maxLimit() });
    await respondWithReadBack(ctx, async () => {
      if (single) return service.readOne(keys[0]!, query);
      const items = await service.readMany(keys, query);
      // Uploads answer in the order of their parts (ids are random, so a sort by key would shuffle them).
      if (query.sort) return items;
      const position = new Map(keys.map((key, index) => [String(key), index]));
      return items.sort((a, b) => (position.get(String(a.id)) ?? 0) - (position.get(String(b.id)) ?? 0));
    });
  };

  router.post('/files', async (ctx) => {
    if (!isMultipart(ctx.req) && ctx.is('application/json') && isObject(ctx.request.body)) {
      const files = new FilesService(app, ctx.state.accountability);
      // Directus's files collection requires `storage` on this route (its words; issue 31). After the
      // permission check, so that a caller who may not create files learns nothing else.
      await files.assertCanCreate();
      if (ctx.request.body.storage === undefined || ctx.request.body.storage === null) {
        throw new FailedValidationError('Validation failed for field "storage". Value is required.', { field: 'storage' });
      }
      const key = await files.createWithoutContent(ctx.request.body);
      await readBack(ctx, files, [key], true);
      return;
    }
    if (!isMultipart(ctx.req)) throw new UnsupportedMediaTypeError('Upload files as multipart/form-data, import one from a URL with POST /files/import, or create a row without content with a JSON object.');
    const files = new FilesService(app, ctx.state.accountability);
    const keys = await files.upload(ctx.req);
    await readBack(ctx, files, keys, keys.length === 1);
  });

  router.post('/files/import', async (ctx) => {
    const { url, data } = validatePayload(importSchema, ctx.request.body ?? {});
    const key = await importFromUrl(app, ctx.state.accountability, url, data as Record<string, unknown>);
    await readBack(ctx, new FilesService(app, ctx.state.accountability), [key], true);
  });

  router.patch('/files/:id', async (ctx, next) => {
    if (!isMultipart(ctx.req)) {
      if (isObject(ctx.request.body)) assertClientFields(ctx.request.body);
      return next();
    }
    const files = new FilesService(app, ctx.state.accountability);
    await files.replace(ctx.params.id!, ctx.req);
    await readBack(ctx, files, [ctx.params.id!], true);
  });

  // The admin's image editor: crop, rotate, flip and focal point, applied on the server (a new content, same id).
  router.post('/files/:id/edit', async (ctx) => {
    const files = new FilesService(app, ctx.state.accountability);
    await files.edit(ctx.params.id!, ctx.request.body);
    await readBack(ctx, files, [ctx.params.id!], true);
  });

  router.patch('/files', async (ctx, next) => {
    const body = ctx.request.body;
    if (Array.isArray(body)) body.forEach((item) => isObject(item) && assertClientFields(item));
    else if (isObject(body) && isObject(body.data)) assertClientFields(body.data);
    return next();
  });

  router.delete('/files/:id', async (ctx) => {
    const files = new FilesService(app, ctx.state.accountability);
    const expected = expectedVersions(ctx);
    await withCurrentItems(ctx, await files.items(), {}, true, () => files.delete([ctx.params.id!], expected));
    ctx.status = 204;
  });

  router.delete('/files', async (ctx) => {
    const files = new FilesService(app, ctx.state.accountability);
    const body = ctx.request.body;
    let keys = deleteKeys(body);
    if (!keys && isObject(body) && isObject(body.query)) keys = await (await files.items()).keysByQuery(parseQuery(body.query, { maxLimit: maxLimit() }));
    if (!keys) throw new InvalidPayloadError('Send an array of keys, { keys } or { query }.', { field: 'keys' });
    const expected = expectedVersions(ctx);
    await withCurrentItems(ctx, await files.items(), {}, false, () => files.delete(keys, expected));
    ctx.status = 204;
  });

  return registerItemRoutes(app, router, '/files', () => 'tessera_files');
}
