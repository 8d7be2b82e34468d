import { randomInt } from 'node:crypto';
import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { ForbiddenError } from '../errors.ts';
import { resolveAccess } from '../permissions/access.ts';
import { moveItem } from '../services/items/sort-items.ts';
import { revertRevision } from '../services/items/revert-revision.ts';
import { validatePayload } from '../services/validate-payload.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const randomSchema = yup.object({ length: yup.number().integer().min(1).max(500).default(32) });
const hashSchema = yup.object({ string: yup.string().required().max(1024) });
const verifySchema = yup.object({ string: yup.string().required().max(1024), hash: yup.string().required().max(1024) });
const sortSchema = yup.object({ item: yup.mixed<string | number>().required(), to: yup.mixed<string | number>().required() });

/** `/utils/*`: random strings, argon2 hashing, manual sort, revision restore and cache clearing. */
export function utilsController(app: AppContext): Router {
  const router = new Router({ prefix: '/utils' });

  router.get('/random/string', (ctx) => {
    const { length } = validatePayload(randomSchema, { length: ctx.query.length === undefined ? undefined : Number(ctx.query.length) });
    ctx.body = { data: Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('') };
  });

  router.post('/hash/generate', async (ctx) => {
    const { string } = validatePayload(hashSchema, ctx.request.body ?? {});
    ctx.body = { data: await hashPassword(string, app.config.auth.hash) };
  });

  router.post('/hash/verify', async (ctx) => {
    const { string, hash } = validatePayload(verifySchema, ctx.request.body ?? {});
    ctx.body = { data: await verifyPassword(hash, string) };
  });

  router.post('/sort/:collection', async (ctx) => {
    const { item, to } = validatePayload(sortSchema, ctx.request.body ?? {});
    const schema = await app.schema.get();
    const overview = schema.collections[ctx.params.collection!];
    if (!overview || overview.system) throw new ForbiddenError();
    // Update permission first: whether the collection has a sort field is only told to those who may sort it.
    const context = { ...app.servicesContext(ctx.state.accountability), schema };
    const access = await resolveAccess(context, schema);
    access?.require(overview.collection, 'update');
    await moveItem({ ...context, access }, overview.collection, item, to);
    ctx.status = 204;
  });

  // Clears the schema cache and with it the permission cache, on every instance (the Redis channel of
  // schema-sync.ts), and the response cache (docs/cache.md).
  router.post('/cache/clear', async (ctx) => {
    if (!ctx.state.accountability.admin) throw new ForbiddenError();
    app.schema.invalidate();
    await app.responseCache.purgeAll();
    // 200 with an empty body, as Directus answers (its clients and test suite check the status; issue 31).
    ctx.status = 200;
    ctx.body = '';
  });

  router.post('/revert/:revision', async (ctx) => {
    const id = Number(ctx.params.revision);
    if (!Number.isSafeInteger(id) || id < 1) throw new ForbiddenError();
    await revertRevision({ ...app.servicesContext(ctx.state.accountability), schema: await app.schema.get() }, id);
    ctx.status = 204;
  });

  return router;
}
