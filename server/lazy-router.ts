import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { lazyModule } from './lazy-module.ts';

/** A router that is imported and built on the first request under one of its path prefixes. */
export interface LazyRouter {
  /** Path prefixes (lower case, no trailing slash) under which every route of the router lies. */
  prefixes: readonly string[];
  load: () => Promise<Router>;
}

/** Whether `path` is `prefix` itself or lies below it (case-insensitive, as @koa/router matches). */
export function underPrefix(path: string, prefixes: readonly string[]): boolean {
  const lower = path.toLowerCase();
  return prefixes.some((prefix) => lower === prefix || lower.startsWith(`${prefix}/`));
}

/**
 * The router's `routes()` and `allowedMethods()` as one middleware that imports the controller (and the
 * services only it uses) on the first request under its prefixes; any other request passes straight on, as
 * it would through a router with no matching route. Order among routers stays that of the list in app.ts.
 */
export function lazyRouter({ prefixes, load }: LazyRouter): Middleware {
  const middleware = lazyModule(async () => {
    const router = await load();
    const routes = router.routes() as unknown as Middleware;
    const allowedMethods = router.allowedMethods() as unknown as Middleware;
    // As app.use(routes) followed by app.use(allowedMethods): the routes run first, then the methods check.
    const both: Middleware = (ctx, next) => routes(ctx, () => allowedMethods(ctx, next));
    return both;
  });
  return async (ctx, next) => {
    if (!underPrefix(ctx.path, prefixes)) return next();
    return (await middleware())(ctx, next);
  };
}
