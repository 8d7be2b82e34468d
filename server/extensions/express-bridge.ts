import type { ServerResponse } from 'node:http';
import express from 'express';
import type { Middleware } from 'koa';
import qs from 'qs';

/** An Express application that hands a request back when nothing in it answered. */
export type ExpressApp = ReturnType<typeof express>;

/** What Directus puts on every request before an extension sees it. */
export type DecorateRequest = (request: Record<string, unknown>, ctx: Parameters<Middleware>[0]) => Promise<void>;

/** An Express app configured as Directus's is for extensions: query strings parsed with qs, no x-powered-by. */
export function createExpressApp(): ExpressApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', (text: string) => qs.parse(text, { depth: 10 }));
  return app;
}

/**
 * Runs an Express app inside the Koa chain: the request is handed over (Koa's parsed body as `req.body`,
 * plus whatever `decorate` adds); if the app answers, Koa stays out of the response; if it calls the final
 * `next()`, Koa goes on as if it had never been there; an error passed to `next(error)` is thrown into
 * Koa's error handler, which answers it in Tessera's error shape.
 */
export function expressBridge(app: ExpressApp, decorate: DecorateRequest, matches: (path: string) => boolean = () => true): Middleware {
  return async (ctx, next) => {
    if (!matches(ctx.path)) return next();
    const req = ctx.req as unknown as Record<string, unknown>;
    const res = ctx.res as ServerResponse;
    req.body = (ctx.request as { body?: unknown }).body;
    await decorate(req, ctx);
    ctx.respond = false;
    // Koa starts every response as a 404; Express (and Node) start it as a 200.
    const koaStatus = res.statusCode;
    res.statusCode = 200;
    const outcome = await new Promise<'answered' | 'passed' | { error: unknown }>((resolve) => {
      const answered = () => resolve('answered');
      res.once('finish', answered);
      res.once('close', answered);
      app(req as unknown as Parameters<ExpressApp>[0], res as unknown as Parameters<ExpressApp>[1], (error?: unknown) => {
        res.off('finish', answered);
        res.off('close', answered);
        resolve(error === undefined || error === 'route' || error === 'router' ? 'passed' : { error });
      });
    });
    if (outcome === 'answered') return;
    ctx.respond = true;
    res.statusCode = koaStatus;
    if (outcome === 'passed') return next();
    if (res.headersSent) {
      res.destroy();
      return;
    }
    throw outcome.error;
  };
}
