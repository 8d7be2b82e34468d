import type { Context } from 'koa';

/** Methods that get their own label; anything else counts as OTHER (a client may send any token). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'SEARCH']);

/** The request's method as a metric label. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/**
 * The route a request matched as a metric label: the router's template (`/items/:collection/:id`), never
 * the path itself, whose ids and collection names would make a new time series per item. Requests no
 * router matched share one label each for the admin app, answers of 404, and the rest (extension endpoints).
 */
export function routeLabel(ctx: Context): string {
  const matched = matchedRoute(ctx);
  if (matched) return matched;
  if (ctx.path === '/admin' || ctx.path.startsWith('/admin/')) return '/admin/*';
  return ctx.status === 404 ? '(no route)' : '(other)';
}

/** The template of the route the request matched (`/items/:collection/:id`, from @koa/router), or null. */
export function matchedRoute(ctx: Context): string | null {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : null;
}
