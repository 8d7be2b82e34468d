import type { Middleware } from 'koa';
import { InvalidPayloadError } from '../errors.ts';

/**
 * The SEARCH method (Directus): a read whose query travels in the body, `{ "query": { filter, fields, … } }`,
 * for queries too long for a URL. `searchBody` goes before the body parser and lets it parse the body (it only
 * parses the methods it knows); `searchAsGet` goes after it and turns the request into the GET of the same
 * path with the body's query as its query string, so every read route answers SEARCH.
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

/** See `searchBody`. A body value that is not a string travels as JSON, which the query parser accepts. */
export function searchAsGet(): Middleware {
  return (ctx, next) => {
    if (ctx.state.searchMethod) {
      const body: unknown = ctx.request.body ?? {};
      const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
      if (!isObject(body)) throw new InvalidPayloadError('The SEARCH body must be a JSON object: { "query": { … } }.', { field: 'query' });
      if (body.keys !== undefined) throw new InvalidPayloadError('"keys" is not supported in SEARCH: filter on the primary key with _in.', { field: 'keys' });
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
