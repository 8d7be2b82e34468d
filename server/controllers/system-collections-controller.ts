import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { registerItemRoutes } from './items-controller.ts';
import { SYSTEM_ENDPOINTS } from './system-endpoints.ts';

export { SYSTEM_ENDPOINTS } from './system-endpoints.ts';

/** `/users`, `/roles`, … `/extensions`: the same query language and CRUD as /items. */
export function systemCollectionsController(app: AppContext): Router {
  const router = new Router();
  for (const name of SYSTEM_ENDPOINTS) registerItemRoutes(app, router, `/${name}`, () => `tessera_${name}`);
  return router;
}
