import type { Middleware } from 'koa';
import { ContentTooLargeError, InternalError, InvalidPayloadError, isTesseraError, TesseraError, UnsupportedMediaTypeError } from '../errors.ts';
import type { Logger } from '../logger.ts';

/** The body-parser and Koa errors that are the client's fault, by HTTP status. */
function fromHttpError(error: { status?: unknown; type?: unknown; message?: string }): TesseraError | null {
  if (error.status === 413) return new ContentTooLargeError('Request body is larger than the allowed maximum.');
  if (error.status === 415) return new UnsupportedMediaTypeError('Unsupported content type.');
  if (error.status === 400 && typeof error.message === 'string') {
    return new InvalidPayloadError(error.type === 'entity.parse.failed' ? 'Request body is not valid JSON.' : error.message);
  }
  return null;
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
      let error = isTesseraError(caught) ? caught : fromHttpError(caught as object);
      if (!error) {
        (ctx.state.logger ?? logger).error({ err: caught, requestId: ctx.state.requestId }, 'unexpected error');
        error = new InternalError('An unexpected error occurred.');
      }
      const message = error.expose ? error.message : 'An unexpected error occurred.';
      const extensions = error.expose ? { ...error.extensions, code: error.code } : { code: error.code };
      ctx.status = error.status;
      ctx.body = { errors: [{ message, extensions }] };
    }
  };
}
