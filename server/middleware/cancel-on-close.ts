import type { Context, Middleware } from 'koa';
import { RequestAbort, runWithRequestSignal } from '../database/request-signal.ts';

/** Methods that only read: stopping their statements midway loses nothing. Writes run to completion. */
const READS = new Set(['GET', 'HEAD', 'SEARCH']);

/**
 * Runs `work` so that its reads' SQL is cancelled when the client goes away before the response is written:
 * the connection closes while a statement runs, and PostgreSQL is told to stop (server/database/cancellable-client.ts).
 * For work known to only read: a POST /graphql query, once its operation is known not to be a mutation.
 */
export async function cancelReadsOnClose<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  const gone = new RequestAbort();
  const onClose = (): void => {
    if (!ctx.res.writableFinished) gone.abort();
  };
  ctx.res.once('close', onClose);
  try {
    return await runWithRequestSignal(gone, work);
  } finally {
    if (ctx.res.writableFinished) ctx.res.off('close', onClose);
  }
}

/** Cancels the SQL of GET/HEAD/SEARCH requests whose client goes away (cancelReadsOnClose). */
export function cancelOnClose(): Middleware {
  return (ctx, next) => (READS.has(ctx.method) ? cancelReadsOnClose(ctx, next) : next());
}
