import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { openApiFor } from './openapi-for.ts';

/** `GET /server/specs/oas`: the OpenAPI 3.1 document of what the caller may do (Directus's path). */
export function openApiController(app: AppContext): Router {
  const router = new Router();
  router.get('/server/specs/oas', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await openApiFor(app, ctx.state.accountability);
  });
  return router;
}
