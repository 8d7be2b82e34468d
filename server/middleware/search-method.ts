import type { Middleware } from 'koa';
import { InvalidPayloadError } from '../errors.ts';

/**
 * The SEARCH method (Directus): a read whose query travels in the body, `{ "query": { filter, fields, … } }`,
 * for queries too long for a URL. `searchBody` goes before the body parser and lets it parse the body (it only
 * parses the methods it knows); `searchAsGet` goes after it and turns the request into the GET of the same
 * path with the body's query as its query string, so every read route answers SEARCH. `keys` (the items
 * to read) stays in `ctx.state.searchKeys` for the item routes, and such a read is never cached.
 */
export function searchBody(): Middleware {
  // Not async: every other request goes straight on, without a frame of its own.
  return (ctx, next) => {
    if (ctx.method === 'SEARCH') {
      ctx.state.searchMethod = true;
      ctx.method = 'POST';
    }
    return next();
  };
}

/** `keys` of a SEARCH body: the items to read, as Directus's readMany takes them (the query still applies). */
function searchKeys(value: unknown): Array<string | number> {
  if (!Array.isArray(value) || !value.every((key) => typeof key === 'string' || typeof key === 'number')) {
    throw new InvalidPayloadError('"keys" must be an array of primary keys.', { field: 'keys' });
  }
  return value;
}

/** See `searchBody`. A body value that is not a string travels as JSON, which the query parser accepts. */
export function searchAsGet(): Middleware {
  return (ctx, next) => {
    if (ctx.state.searchMethod) {
      const body: unknown = ctx.request.body ?? {};
      const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
      if (!isObject(body)) throw new InvalidPayloadError('The SEARCH body must be a JSON object: { "query": { … } }.', { field: 'query' });
      if (body.keys !== undefined) ctx.state.searchKeys = searchKeys(body.keys);
      const query = body.query ?? {};
      if (!isObject(query)) throw new InvalidPayloadError('"query" must be an object of query parameters.', { field: 'query' });
      const params = new URLSearchParams(ctx.querystring);
      for (const [name, value] of Object.entries(query)) {
        if (value === undefined) continue;
        params.set(name, typeof value === 'string' ? value : JSON.stringify(value));
      }
      ctx.method = 'GET';
      ctx.querystring = params.toString();
      ctx.request.body = undefined;
    }
    return next();
  };
}
