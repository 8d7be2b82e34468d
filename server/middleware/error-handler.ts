import type { Middleware } from 'koa';
import {
  ContentTooLargeError,
  ForbiddenError,
  InternalError,
  InvalidPayloadError,
  InvalidTokenError,
  isTesseraError,
  RangeNotSatisfiableError,
  RequestsExceededError,
  RouteNotFoundError,
  type TesseraError,
  UnsupportedMediaTypeError,
} from '../errors.ts';
import type { Logger } from '../logger.ts';
import { translateDatabaseFault } from '../database/database-faults.ts';
import { translateUnstorableText } from '../database/translate-db-error.ts';
import { translateCancel } from '../query/query-db-errors.ts';

/** Body-parser and Koa (`ctx.throw`) errors that are the client's fault, mapped by HTTP status. */
function fromHttpError(caught: unknown): TesseraError | null {
  if (typeof caught !== 'object' || caught === null) return null;
  const error = caught as { status?: unknown; type?: unknown; message?: unknown; expose?: unknown };
  const message = typeof error.message === 'string' && error.expose !== false ? error.message : undefined;
  switch (error.status) {
    case 400:
      return new InvalidPayloadError(error.type === 'entity.parse.failed' ? 'Request body is not valid JSON.' : (message ?? 'Bad request.'));
    case 401:
      return new InvalidTokenError(message);
    case 403:
      return new ForbiddenError(message);
    case 404:
      return new RouteNotFoundError(message ?? 'Not found.');
    case 413:
      return new ContentTooLargeError('Request body is larger than the allowed maximum.');
    case 415:
      return new UnsupportedMediaTypeError('Unsupported content type.');
    case 416:
      return new RangeNotSatisfiableError(message ?? 'Range not satisfiable.');
    case 429:
      return new RequestsExceededError(message ?? 'Too many requests.');
    default:
      return null;
  }
}

/**
 * Outermost error boundary: every failure becomes `{ errors: [{ message, extensions: { code } }] }`.
 * Unknown errors are logged with the request id and answered with a generic 500.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      // A statement stopped by DB_STATEMENT_TIMEOUT on any path is a 503 QUERY_TIMEOUT; an outage a 503 SERVICE_UNAVAILABLE.
      let error = isTesseraError(caught) ? caught : (fromHttpError(caught) ?? translateCancel(caught) ?? translateDatabaseFault(caught) ?? translateUnstorableText(caught));
      if (error && !isTesseraError(caught) && error.code === 'SERVICE_UNAVAILABLE') {
        (ctx.state.logger ?? logger).warn({ err: caught, requestId: ctx.state.requestId }, 'database unavailable');
      }
      if (!error) {
        (ctx.state.logger ?? logger).error({ err: caught, requestId: ctx.state.requestId }, 'unexpected error');
        error = new InternalError('An unexpected error occurred.');
      }
      const message = error.expose ? error.message : 'An unexpected error occurred.';
      const extensions = error.expose ? { ...error.extensions, code: error.code } : { code: error.code };
      ctx.status = error.status;
      if (typeof error.extensions.retryAfter === 'number') ctx.set('Retry-After', String(error.extensions.retryAfter));
      ctx.body = { errors: [{ message, extensions }] };
    }
  };
}
