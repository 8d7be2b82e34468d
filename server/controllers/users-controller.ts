import Router from '@koa/router';
import type { Context } from 'koa';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError } from '../errors.ts';
import { resolveAccess } from '../permissions/access.ts';
import { OWN_PROFILE_UPDATE } from '../permissions/default-permissions.ts';
import { parseQuery } from '../query/parse-query.ts';
import { validatePayload } from '../services/validate-payload.ts';
import { ItemsService } from '../services/items/items-service.ts';
import { respondWithReadBack } from './items-controller.ts';

const trackPageSchema = yup.object({ last_page: yup.string().required().max(255) }).exact();

/** `/users/me`: the signed-in user's own item, read and updated with the caller's own permissions. */
export function usersController(app: AppContext): Router {
  const router = new Router({ prefix: '/users' });

  function signedInUser(ctx: Context): string {
    const user: string | null = ctx.state.accountability.user;
    if (!user) throw new ForbiddenError('Sign in to read your own user.');
    return user;
  }

  router.get('/me', async (ctx) => {
    const user = signedInUser(ctx);
    const query = parseQuery(ctx.querystring);
    const schema = await app.schema.get();
    const service = new ItemsService('tessera_users', { ...app.servicesContext(ctx.state.accountability), schema });
    try {
      ctx.body = { data: await service.readOne(user, query) };
    } catch (error) {
      // A role that may not read users still learns who it is signed in as (and nothing else).
      if (!(error instanceof ForbiddenError) || query.fields?.some((field) => field !== 'id') || query.filter || query.deep) throw error;
      ctx.body = { data: { id: user } };
    }
  });

  router.patch('/me', async (ctx) => {
    const user = signedInUser(ctx);
    const schema = await app.schema.get();
    const context = app.servicesContext(ctx.state.accountability);
    let access = await resolveAccess(context, schema);
    // App users may edit their own profile even when their role grants no update on users.
    if (access && !access.permission('tessera_users', 'update') && ctx.state.accountability.app) access = access.withPermission(OWN_PROFILE_UPDATE);
    const service = new ItemsService('tessera_users', { ...context, schema, access });
    await service.updateOne(user, ctx.request.body);
    await respondWithReadBack(ctx, () => service.readOne(user, parseQuery(ctx.querystring)));
  });

  // The app records the page a user was last on; only that column, and no permission is needed for it.
  router.patch('/me/track/page', async (ctx) => {
    const user = signedInUser(ctx);
    const { last_page } = validatePayload(trackPageSchema, ctx.request.body ?? {});
    await app.database.kysely().updateTable('tessera_users').set({ last_page }).where('id', '=', user).execute();
    ctx.status = 204;
  });

  return router;
}
