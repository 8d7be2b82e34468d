import Router from '@koa/router';
import type { AppContext } from '../app-context.ts';
import { registerItemRoutes } from './items-controller.ts';

/**
 * System collections served by the shared item routes at their own paths (`/users` → tessera_users).
 * Files, sessions, migrations and the schema collections have endpoints of their own.
 */
export const SYSTEM_ENDPOINTS = [
  'users',
  'roles',
  'permissions',
  'folders',
  'activity',
  'revisions',
  'presets',
  'settings',
  'notifications',
  'shares',
  'flows',
  'operations',
  'dashboards',
  'panels',
  'translations',
  'versions',
  'webhooks',
  'extensions',
] as const;

/** `/users`, `/roles`, … `/extensions`: the same query language and CRUD as /items. */
export function systemCollectionsController(app: AppContext): Router {
  const router = new Router();
  for (const name of SYSTEM_ENDPOINTS) registerItemRoutes(app, router, `/${name}`, () => `tessera_${name}`);
  return router;
}
