import { STATUS_CODES } from 'node:http';
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

/** What the handler answers: a Tessera error, or an error from extension code in the same envelope. */
interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  expose: boolean;
  extensions: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isErrorStatus(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 400 && (value as number) <= 599;
}

/** `Not Found` → `NOT_FOUND`: a code for an error that has only a status. */
function statusCode(status: number): string {
  return (STATUS_CODES[status] ?? 'Error').toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/**
 * An error made with @directus/errors' createError (`name: 'DirectusError'`, numeric status, string code),
 * recognised by shape since extensions bundle their own copy of that package. 5xx messages stay hidden.
 */
function fromDirectusError(caught: unknown): ErrorAnswer | null {
  if (!(caught instanceof Error) || caught.name !== 'DirectusError') return null;
  const error = caught as Error & { status?: unknown; code?: unknown; extensions?: unknown };
  if (!isErrorStatus(error.status) || typeof error.code !== 'string' || error.code === '') return null;
  return { status: error.status, code: error.code, message: error.message, expose: error.status < 500, extensions: isRecord(error.extensions) ? error.extensions : {} };
}

/**
 * An http-errors style error (`status` or `statusCode`, `expose: true`) whose status fromHttpError does not
 * map: answered with its status and message, its code taken from its status (`409` → `CONFLICT`).
 */
function fromExposedHttpError(caught: unknown): ErrorAnswer | null {
  if (!(caught instanceof Error)) return null;
  const error = caught as Error & { status?: unknown; statusCode?: unknown; expose?: unknown };
  const status = error.status ?? error.statusCode;
  if (error.expose !== true || !isErrorStatus(status)) return null;
  return { status, code: statusCode(status), message: error.message, expose: true, extensions: {} };
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
      // Extension code throws Directus's errors (their own status and code) and http-errors style ones.
      const directus = isTesseraError(caught) ? null : fromDirectusError(caught);
      // A statement stopped by DB_STATEMENT_TIMEOUT on any path is a 503 QUERY_TIMEOUT; an outage a 503 SERVICE_UNAVAILABLE.
      let error: TesseraError | ErrorAnswer | null = isTesseraError(caught)
        ? caught
        : (directus ?? fromHttpError(caught) ?? translateCancel(caught) ?? translateDatabaseFault(caught) ?? translateUnstorableText(caught) ?? fromExposedHttpError(caught));
      if (error && !isTesseraError(caught) && !directus && error.code === 'SERVICE_UNAVAILABLE') {
        (ctx.state.logger ?? logger).warn({ err: caught, requestId: ctx.state.requestId }, 'database unavailable');
        ctx.state.failureLogged = true;
      }
      if (!error || (directus && directus.status >= 500)) {
        (ctx.state.logger ?? logger).error({ err: caught, requestId: ctx.state.requestId }, 'unexpected error');
        ctx.state.failureLogged = true;
        error ??= new InternalError('An unexpected error occurred.');
      }
      const message = error.expose ? error.message : 'An unexpected error occurred.';
      const extensions = error.expose ? { ...error.extensions, code: error.code } : { code: error.code };
      ctx.status = error.status;
      if (typeof error.extensions.retryAfter === 'number') ctx.set('Retry-After', String(error.extensions.retryAfter));
      ctx.body = { errors: [{ message, extensions }] };
    }
  };
}
