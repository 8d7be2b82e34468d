import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError } from '../errors.ts';
import { parseQuery } from '../query/parse-query.ts';
import { ItemsService } from '../services/items/items-service.ts';

/** `/users/me`: the signed-in user's own item, read with the query language like any other item. */
export function usersController(app: AppContext): Router {
  const router = new Router({ prefix: '/users' });

  router.get('/me', async (ctx) => {
    const caller = ctx.state.accountability;
    if (!caller.user) throw new ForbiddenError();
    const query = parseQuery(ctx.querystring);
    // Until role permissions land, non-admins may read their own plain fields only: a relational path
    // (role.users.email) would read other items with the admin rights used here.
    if (!caller.admin && (query.fields?.some((field) => field.includes('.')) || query.deep || query.filter || query.aggregate)) throw new ForbiddenError();
    const schema = await app.schema.get();
    const service = new ItemsService('tessera_users', { ...app.servicesContext({ ...caller, admin: true }), schema });
    ctx.body = { data: await service.readOne(caller.user, { fields: query.fields }) };
  });

  return router;
}
