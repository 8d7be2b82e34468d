import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { openApiFor } from './openapi-for.ts';

/** The JSON of each kept document (openapi-for.ts keeps one per schema overview and role): written once. */
const BODIES = new WeakMap<object, Buffer>();

/** `GET /server/specs/oas`: the OpenAPI 3.1 document of what the caller may do (Directus's path). */
export function openApiController(app: AppContext): Router {
  const router = new Router();
  router.get('/server/specs/oas', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const document = await openApiFor(app, ctx.state.accountability);
    let body = BODIES.get(document);
    if (!body) BODIES.set(document, (body = Buffer.from(JSON.stringify(document))));
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return router;
}
