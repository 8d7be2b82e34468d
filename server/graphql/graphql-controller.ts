import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { lazyModule } from '../lazy-module.ts';
import type { GraphQLScope } from './build-schema.ts';

/**
 * `/graphql` (user collections), `/graphql/system`, and their SDL at `/server/specs/graphql[/system]`.
 * graphql and graphql-http (some 180 modules) load with the first GraphQL request, not at start-up.
 */
export function graphqlController(app: AppContext): Router {
  const router = new Router();
  const handlers = lazyModule(async () => (await import('./graphql-handlers.ts')).createGraphQLHandlers(app));
  const serve = (scope: GraphQLScope) => async (ctx: Context) => (await handlers()).serve(scope)(ctx);
  const sdl = (scope: GraphQLScope) => async (ctx: Context) => (await handlers()).sdl(scope)(ctx);

  router.get('/graphql', serve('items'));
  router.post('/graphql', serve('items'));
  router.get('/graphql/system', serve('system'));
  router.post('/graphql/system', serve('system'));
  router.get('/server/specs/graphql', sdl('items'));
  router.get('/server/specs/graphql/system', sdl('system'));
  return router;
}
