import express from 'express';

type Handler = (...args: unknown[]) => unknown;

/** Router methods whose function arguments are request handlers. */
const HANDLER_METHODS = ['use', 'all', 'get', 'post', 'put', 'patch', 'delete', 'options', 'head'] as const;

/**
 * An Express 4 router whose handlers may be async: a promise a handler returns that rejects goes to
 * `next(error)`, as Express 5 does, instead of becoming an unhandled rejection that no one answers.
 */
export function extensionRouter(): express.Router {
  const router = express.Router();
  for (const method of HANDLER_METHODS) {
    const original = (router as unknown as Record<string, Handler>)[method]!.bind(router);
    (router as unknown as Record<string, Handler>)[method] = (...args: unknown[]) => original(...args.map((arg) => (typeof arg === 'function' ? settled(arg as Handler) : arg)));
  }
  return router;
}

/** Keeps the handler's arity (Express tells error handlers by their four parameters). */
function settled(handler: Handler): Handler {
  if (handler.length === 4) {
    return function (this: unknown, error: unknown, req: unknown, res: unknown, next: unknown) {
      return forward(handler.call(this, error, req, res, next), next);
    };
  }
  return function (this: unknown, req: unknown, res: unknown, next: unknown) {
    return forward(handler.call(this, req, res, next), next);
  };
}

function forward(result: unknown, next: unknown): unknown {
  if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
    (result as Promise<unknown>).then(undefined, (error: unknown) => (next as (error: unknown) => void)(error ?? new Error('An extension handler rejected without a reason.')));
  }
  return result;
}
