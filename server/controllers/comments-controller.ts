import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { parseQuery } from '../query/parse-query.ts';
import { CommentsService } from '../services/comments/comments-service.ts';
import { ItemsService } from '../services/items/items-service.ts';
import { respondWithReadBack } from './items-controller.ts';

/**
 * `/activity/comment`: comment on an item, edit or delete one's own comment (Directus 10). Registered
 * before the system collections so `/activity/comment` is not read as an activity id.
 */
export function commentsController(app: AppContext): Router {
  const router = new Router();

  async function service(ctx: Context): Promise<CommentsService> {
    const schema = await app.schema.get();
    return new CommentsService({ ...app.servicesContext(ctx.state.accountability), schema });
  }

  async function answer(ctx: Context, id: number): Promise<void> {
    const schema = await app.schema.get();
    const activity = new ItemsService('tessera_activity', { ...app.servicesContext(ctx.state.accountability), schema });
    await respondWithReadBack(ctx, () => activity.readOne(id, parseQuery(ctx.querystring, {})), () => ({ id }));
  }

  router.get('/activity/comment', async (ctx) => {
    ctx.body = { data: await (await service(ctx)).list(ctx.query.collection, ctx.query.item) };
  });

  router.get('/activity/comment/mentionable', async (ctx) => {
    ctx.body = { data: await (await service(ctx)).mentionable(ctx.query.collection, ctx.query.item, ctx.query.search) };
  });

  router.post('/activity/comment', async (ctx) => {
    // Its mention notifications are e-mailed by their items.create action (server/services/notifications/notification-mail.ts).
    const { id } = await (await service(ctx)).create(ctx.request.body);
    await answer(ctx, id);
  });

  router.patch('/activity/comment/:id', async (ctx) => {
    const { id } = await (await service(ctx)).update(ctx.params.id!, ctx.request.body);
    await answer(ctx, id);
  });

  router.delete('/activity/comment/:id', async (ctx) => {
    await (await service(ctx)).delete(ctx.params.id!);
    ctx.status = 204;
  });

  return router;
}
