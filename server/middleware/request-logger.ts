import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';

/** Logs one structured line per request, after it has been answered. */
export function requestLogger(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    ctx.state.logger = logger.child({ requestId: ctx.state.requestId });
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = ctx.status >= 500 ? 'error' : 'info';
      ctx.state.logger[level]({ method: ctx.state.searchMethod ? 'SEARCH' : ctx.method, url: ctx.url, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}
