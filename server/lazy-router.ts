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
  return lowerUnderPrefix(path.toLowerCase(), prefixes);
}

function lowerUnderPrefix(lower: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) {
    if (lower.startsWith(prefix) && (lower.length === prefix.length || lower.charCodeAt(prefix.length) === 47 /* / */)) return true;
  }
  return false;
}

/** The router's `routes()` and `allowedMethods()` as one middleware, imported and built on first use. */
function loadOnFirstUse(load: () => Promise<Router>): () => Promise<Middleware> {
  return lazyModule(async () => {
    const router = await load();
    const routes = router.routes() as unknown as Middleware;
    const allowedMethods = router.allowedMethods() as unknown as Middleware;
    // As app.use(routes) followed by app.use(allowedMethods): the routes run first, then the methods check.
    const both: Middleware = (ctx, next) => routes(ctx, () => allowedMethods(ctx, next));
    return both;
  });
}

/**
 * The routers as ONE middleware: a request passes through each router whose prefixes it lies under, in the
 * order of the list, as through app.use() of each router's routes and allowedMethods; a router is imported
 * (with the services only it uses) on the first request under its prefixes. One middleware rather than one
 * per router: every request would otherwise pass through all of them (an async frame and a lower-cased
 * path each) to reach its own.
 */
export function lazyRouters(routers: readonly LazyRouter[]): Middleware {
  const entries = routers.map(({ prefixes, load }) => ({ prefixes, middleware: loadOnFirstUse(load) }));
  return (ctx, next) => {
    const dispatch = (from: number): Promise<unknown> => {
      const lower = ctx.path.toLowerCase();
      for (let index = from; index < entries.length; index++) {
        const entry = entries[index]!;
        if (lowerUnderPrefix(lower, entry.prefixes)) return entry.middleware().then((middleware) => middleware(ctx, () => dispatch(index + 1)));
      }
      return next();
    };
    return dispatch(0);
  };
}
