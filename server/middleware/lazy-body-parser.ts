import type { Middleware } from 'koa';
import { lazyModule } from '../lazy-module.ts';

/** Methods whose bodies are parsed; GET, HEAD and OPTIONS never are. */
const PARSED = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// koa-body brings formidable and zod (about 5 MB resident): loaded with the first request that has a body to parse.
const loadKoaBody = lazyModule(() => import('koa-body'));

/**
 * koa-body for JSON, form and text bodies up to `limit` bytes (multipart is the files controller's own),
 * loaded on the first POST/PUT/PATCH/DELETE, so a server that only answers reads never loads it.
 */
export function lazyBodyParser(limit: number): Middleware {
  let parse: Middleware | null = null;
  return async (ctx, next) => {
    if (!PARSED.has(ctx.method)) return next();
    if (!parse) {
      const { koaBody } = await loadKoaBody();
      parse ??= koaBody({
        jsonLimit: limit,
        formLimit: limit,
        textLimit: limit,
        multipart: false,
        parsedMethods: [...PARSED] as never,
        onError: (error) => {
          throw error;
        },
      });
    }
    return parse(ctx, next);
  };
}
