import { Writable } from 'node:stream';
import Koa, { type Middleware } from 'koa';
import pino from 'pino';
import request from 'supertest';
import { errorHandler } from '../../server/middleware/error-handler.ts';
import { requestId } from '../../server/middleware/request-id.ts';

/** A Koa app behind the request id and the error handler whose only route is `route`, with the log lines it wrote. */
export function appWithErrorHandler(route: Middleware) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  const app = new Koa();
  app.silent = true;
  app.use(requestId());
  app.use(errorHandler(pino({ level: 'info' }, stream)));
  app.use(route);
  return { agent: request(app.callback()), lines };
}
