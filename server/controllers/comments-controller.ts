import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { parseQuery } from '../query/parse-query.ts';
import { CommentsService } from '../services/comments/comments-service.ts';
import { commentTarget, orderComments, shapeComment } from '../services/comments/directus-comments.ts';
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

  // Mention notifications are e-mailed by the comments' items.create action (server/services/notifications/notification-mail.ts).
  commentWriteRoutes(router, '/activity/comment', service, answer);

  directusCommentRoutes(router, service);
  return router;
}

/**
 * `/comments` as Directus 11 serves it (its directus_comments collection), over the same comments and
 * rules as `/activity/comment`: a read names the item (`filter[collection][_eq]` and `filter[item][_eq]`),
 * and answers `{ id, collection, item, comment, date_created, date_updated, user_created, user_updated }`.
 */
function directusCommentRoutes(router: Router, service: (ctx: Context) => Promise<CommentsService>): void {
  const read = async (ctx: Context, id: number | string) => shapeComment(await (await service(ctx)).readOne(id), parseQuery(ctx.querystring).fields);
  // A write answers the comment read back (204 when the caller may not read it, as other writes do).
  const written = (ctx: Context, id: number) => respondWithReadBack(ctx, () => read(ctx, id), () => ({ id }));

  // SEARCH /comments reaches this route too, its body's query as the query string (middleware/search-method.ts).
  router.get('/comments', async (ctx) => {
    const query = parseQuery(ctx.querystring);
    const { collection, item } = commentTarget(query.filter);
    const { comments } = await (await service(ctx)).list(collection, item);
    ctx.body = { data: orderComments(comments.map((comment) => ({ ...comment, collection, item })), query).map((comment) => shapeComment(comment, query.fields)) };
  });
  router.get('/comments/:id', async (ctx) => {
    ctx.body = { data: await read(ctx, ctx.params.id!) };
  });

  commentWriteRoutes(router, '/comments', service, written);
}

/** Create, update and delete under `path`, each write answered by `answer` (the two APIs differ only in shape). */
function commentWriteRoutes(router: Router, path: string, service: (ctx: Context) => Promise<CommentsService>, answer: (ctx: Context, id: number) => Promise<void>): void {
  router.post(path, async (ctx) => {
    const { id } = await (await service(ctx)).create(ctx.request.body);
    await answer(ctx, id);
  });
  router.patch(`${path}/:id`, async (ctx) => {
    const { id } = await (await service(ctx)).update(ctx.params.id!, ctx.request.body);
    await answer(ctx, id);
  });
  router.delete(`${path}/:id`, async (ctx) => {
    await (await service(ctx)).delete(ctx.params.id!);
    ctx.status = 204;
  });
}
