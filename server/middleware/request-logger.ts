import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';

/**
 * Query parameters whose values are credentials: access and refresh tokens, static tokens, password-reset,
 * invitation and e-mail-link tokens, OpenID authorization codes and state, one-time passwords. Compared
 * case-insensitively, on the name before any `[` (so `token[]=` and `Access_Token=` are caught too).
 */
const SECRET_PARAMS = new Set(['access_token', 'refresh_token', 'token', 'session_token', 'password', 'otp', 'secret', 'code', 'state', 'csrftoken', 'id_token']);

/** `url` with the value of every credential-bearing query parameter replaced by `[redacted]`; the rest untouched. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const hashAt = url.indexOf('#', queryAt);
  const query = url.slice(queryAt + 1, hashAt < 0 ? undefined : hashAt);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        name = rawName;
      }
      const base = name.split('[')[0]!.trim().toLowerCase();
      return SECRET_PARAMS.has(base) && equals >= 0 ? `${rawName}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryAt)}?${redacted}`;
}

/**
 * A request's state whose `logger` (its child logger, tagged with its id) is made on first use: an accessor
 * of the class, where a property defined on each request's own state object cost a microsecond per request.
 */
class LoggedState {
  readonly #parent: Logger;
  #child: Logger | undefined;

  constructor(parent: Logger) {
    this.#parent = parent;
  }

  get logger(): Logger {
    return (this.#child ??= this.#parent.child({ requestId: (this as { requestId?: string }).requestId }));
  }

  set logger(value: Logger) {
    this.#child = value;
  }
}

/**
 * Logs one structured line per request, after it has been answered. Credentials in the query are redacted.
 * `ctx.state.logger` (the request's child logger, tagged with its id) is made on first use, and the line
 * only when its level is on: at LOG_LEVEL=warn a request that logs nothing pays for neither.
 * A 5xx is an error line unless the error handler has already logged its cause at the level it deserves
 * (`database unavailable` is a warning: the outage ends by itself), so each failure is logged once.
 */
export function requestLogger(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    ctx.state = Object.assign(new LoggedState(logger), ctx.state);
    try {
      await next();
    } finally {
      const level = ctx.status >= 500 && !ctx.state.failureLogged ? 'error' : 'info';
      if (logger.isLevelEnabled(level)) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        (ctx.state.logger as Logger)[level]({ method: ctx.state.searchMethod ? 'SEARCH' : ctx.method, url: redactUrl(ctx.originalUrl), status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
      }
    }
  };
}
