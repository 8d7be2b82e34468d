import type { Middleware } from 'koa';
import { runWithRequestSignal } from '../database/request-signal.ts';

/** Methods that only read: stopping their statements midway loses nothing. Writes run to completion. */
const READS = new Set(['GET', 'HEAD', 'SEARCH']);

/**
 * Cancels a read's SQL when the client goes away before the response is written: the connection closes
 * while the statement runs, and PostgreSQL is told to stop (server/database/cancellable-client.ts).
 */
export function cancelOnClose(): Middleware {
  return async (ctx, next) => {
    if (!READS.has(ctx.method)) return next();
    const controller = new AbortController();
    const onClose = (): void => {
      if (!ctx.res.writableFinished) controller.abort();
    };
    ctx.res.once('close', onClose);
    try {
      await runWithRequestSignal(controller.signal, next);
    } finally {
      if (ctx.res.writableFinished) ctx.res.off('close', onClose);
    }
  };
}
