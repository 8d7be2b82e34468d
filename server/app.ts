import cors from '@koa/cors';
import Koa from 'koa';
import type { AppContext } from './app-context.ts';
import { appRouters } from './app-routers.ts';
import { adminController } from './controllers/admin-controller.ts';
import { cookieKeys } from './auth/session-cookie.ts';
import { serverController } from './controllers/server-controller.ts';
import { RouteNotFoundError } from './errors.ts';
import { startEventTriggers } from './flows/event-triggers.ts';
import { lazyBodyParser } from './middleware/lazy-body-parser.ts';
import { lazyRouters } from './lazy-router.ts';
import { accountability } from './middleware/accountability.ts';
import { cancelOnClose } from './middleware/cancel-on-close.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { requestId } from './middleware/request-id.ts';
import { requestLogger } from './middleware/request-logger.ts';
import { responseCache } from './middleware/response-cache.ts';
import { searchAsGet, searchBody } from './middleware/search-method.ts';
import type { RateLimit } from './middleware/rate-limit.ts';
import type { Metrics } from './metrics/create-metrics.ts';
import type { Tracing } from './observability/tracing.ts';

/** What the process that serves the app adds to it (server/http-server.ts). */
export interface AppOptions {
  /** RATE_LIMITER_*: its owner closes it. */
  rateLimit?: Pick<RateLimit, 'beforeAuth' | 'afterAuth'>;
  /** METRICS_ENABLED: times requests and serves /metrics; its owner closes it. */
  metrics?: Pick<Metrics, 'middleware'>;
  /** OTEL_* traces: opens each request's span (server/observability/tracing.ts); its owner flushes it. */
  tracing?: Pick<Tracing, 'middleware'>;
}

/** The Koa application and what it runs beside its routes. */
export interface TesseraApp extends Koa {
  /**
   * Stops the event and schedule flow triggers the app started (subscriptions, croner timers), so nothing of
   * it runs on after its server has drained. The routes still answer; close the context and database after.
   */
  close(): void;
}

/** Builds the Koa application; it does not listen, so tests can drive `app.callback()`. */
export function createApp(context: AppContext, options: AppOptions = {}): TesseraApp {
  const { config, logger } = context;
  const app = new Koa({ proxy: false, keys: cookieKeys(config.secret) });
  app.silent = true;

  // Order matters: the request's span wraps everything (its status is the one sent), then ids and logs,
  // so even a failed body parse is logged with its id.
  if (options.tracing) app.use(options.tracing.middleware);
  app.use(requestId());
  app.use(requestLogger(logger));
  app.use(errorHandler(logger));
  if (options.metrics) app.use(options.metrics.middleware);
  app.use(cancelOnClose());
  // Requests wait for the extensions' first load (hooks must be in place before the first write).
  const extensionsLoaded = context.extensions.load();
  let extensionsReady = false;
  void extensionsLoaded.then(() => (extensionsReady = true), () => (extensionsReady = true));
  // Not an async function: once loaded, a request passes on without a promise of this frame's own.
  app.use((ctx, next) => (extensionsReady ? next() : extensionsLoaded.catch(() => undefined).then(next)));
  app.use(context.extensions.mount('early'));
  if (config.cors.enabled) {
    const origins = config.cors.origin;
    app.use(
      cors({
        origin: (ctx) => (origins.includes('*') ? (config.cors.credentials ? ctx.get('Origin') : '*') : origins.includes(ctx.get('Origin')) ? ctx.get('Origin') : ''),
        allowMethods: config.cors.methods,
        allowHeaders: config.cors.allowedHeaders,
        exposeHeaders: config.cors.exposedHeaders,
        credentials: config.cors.credentials,
        maxAge: config.cors.maxAge,
      }),
    );
  }
  app.use(searchBody());
  // Anonymous floods are turned away before their bodies are parsed; signed-in callers after accountability.
  if (options.rateLimit) app.use(options.rateLimit.beforeAuth);
  app.use(lazyBodyParser(config.server.maxPayloadSize));
  app.use(searchAsGet());
  app.use(accountability(config.secret, context));
  if (options.rateLimit) app.use(options.rateLimit.afterAuth);
  // CACHE_ENABLED is read once at start: with the cache off, requests do not pass through it at all.
  if (context.responseCache.enabled) app.use(responseCache(context));
  app.use(context.extensions.mount('routes'));

  // /server (ping, health) is built now; every other router on the first request under its path prefix.
  const server = serverController(context);
  app.use(server.routes());
  app.use(server.allowedMethods());
  app.use(lazyRouters(appRouters(context)));
  // Event and schedule flows run whether or not /flows was ever asked for (its router loads lazily).
  const stopTriggers = startEventTriggers(context);
  app.use(context.extensions.endpoints());
  app.use(context.extensions.mount('late'));
  app.use(adminController(undefined, () => context.extensions.embeds()));

  app.use((ctx) => {
    throw new RouteNotFoundError(`Route ${ctx.path} doesn't exist.`);
  });
  return Object.assign(app, { close: stopTriggers });
}
