import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError } from '../errors.ts';

/** `/users/me`: the signed-in user's own profile (the data engine adds the full /users collection). */
export function usersController(app: AppContext): Router {
  const router = new Router({ prefix: '/users' });

  router.get('/me', async (ctx) => {
    const { user } = ctx.state.accountability;
    if (!user) throw new ForbiddenError();
    const row = await app.database
      .kysely()
      .selectFrom('tessera_users')
      .select(['id', 'first_name', 'last_name', 'email', 'status', 'role', 'language', 'appearance', 'avatar', 'last_access'])
      .where('id', '=', user)
      .executeTakeFirst();
    if (!row) throw new ForbiddenError();
    ctx.body = { data: row };
  });

  return router;
}
