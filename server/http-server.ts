import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from './app-context.ts';
import { createApp } from './app.ts';
import { attachRealtime, type RealtimeServer } from './realtime/realtime-server.ts';

/** A listening HTTP server and how to stop it gracefully. */
export interface RunningServer {
  server: Server;
  port: number;
  /**
   * Stops accepting, closes idle keep-alive connections, answers requests still arriving on open ones with
   * `Connection: close`, and resolves once every handler has returned (or SHUTDOWN_TIMEOUT has passed, when
   * the remaining connections are dropped), then stops the app's flow triggers. Close the database only after this resolves.
   */
  close(): Promise<void>;
  /** The WebSocket endpoints (/websocket, graphql-ws on /graphql); null with WEBSOCKETS_ENABLED=false. */
  realtime: RealtimeServer | null;
}

/**
 * Serves the app on HOST:PORT with the configured timeouts, connection cap and rate limiter.
 * `onAppBuilt` runs between building the app and listening (`tessera start --timings` splits the two).
 */
export async function listen(context: AppContext, onAppBuilt?: () => void): Promise<RunningServer> {
  const { config, logger } = context;
  // rate-limiter-flexible (and ioredis) load only when the limiter is on (RATE_LIMITER_ENABLED, off by default).
  const rateLimit = config.rateLimiter.enabled ? (await import('./middleware/rate-limit.ts')).createRateLimit(config, logger) : null;
  // prom-client loads only with METRICS_ENABLED; off, no middleware measures anything.
  const metrics = config.metrics.enabled ? await (await import('./metrics/create-metrics.ts')).createMetrics(context) : null;
  // The OpenTelemetry SDK loads only when OTEL_* configures an exporter; off, requests and statements make no spans.
  const tracing = config.traces.enabled ? await (await import('./observability/tracing.ts')).startTracing(config.traces, logger) : null;
  const app = createApp(context, { rateLimit: rateLimit ?? undefined, metrics: metrics ?? undefined, tracing: tracing ?? undefined });
  const handle = app.callback();
  onAppBuilt?.();
  let closing = false;
  let inFlight = 0;
  let onIdle: (() => void) | null = null;
  const open = new Set<ServerResponse>();

  const server = createServer(
    // node:http checks headersTimeout/requestTimeout on this interval (30 s by default, far coarser than the timeouts).
    { connectionsCheckingInterval: Math.min(1_000, config.server.headersTimeoutMs) },
    (request: IncomingMessage, response: ServerResponse) => {
      if (closing) response.setHeader('Connection', 'close');
      inFlight += 1;
      context.foreground.enter();
      open.add(response);
      response.once('close', () => open.delete(response));
      // Koa's handler resolves once the response is written (or the error answered): that is when the
      // request stops needing the database.
      void Promise.resolve(handle(request, response)).finally(() => {
        inFlight -= 1;
        context.foreground.leave();
        if (closing && inFlight === 0) onIdle?.();
      });
    },
  );
  server.headersTimeout = config.server.headersTimeoutMs;
  server.requestTimeout = config.server.requestTimeoutMs;
  server.keepAliveTimeout = config.server.keepAliveTimeoutMs;
  if (config.server.maxConnections > 0) server.maxConnections = config.server.maxConnections;
  server.on('drop', (data) => logger.warn({ remote: data?.remoteAddress, maxConnections: server.maxConnections }, 'connection refused: SERVER_MAX_CONNECTIONS reached'));
  // WebSockets (/websocket) ride on this server's upgrade requests; shutdown closes them first.
  const realtime = config.realtime.enabled ? attachRealtime(server, context) : null;
  if (realtime) metrics?.watchRealtime(realtime);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    server,
    port: (server.address() as AddressInfo).port,
    realtime,
    close: async () => {
      closing = true;
      const realtimeClosed = realtime?.close();
      // Responses not yet started tell their clients not to reuse the connection.
      for (const response of open) {
        if (!response.headersSent) response.setHeader('Connection', 'close');
        // A response that began before shutdown promised keep-alive: close its connection once it is idle.
        response.once('finish', () => setImmediate(() => server.closeIdleConnections()));
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const handlersDone = new Promise<void>((resolve) => {
        onIdle = resolve;
        if (inFlight === 0) resolve();
      });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), config.server.shutdownTimeoutMs);
      });
      const outcome = await Promise.race([Promise.all([closed, handlersDone]), timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        logger.warn({ requests: inFlight, timeoutMs: config.server.shutdownTimeoutMs }, 'shutdown timeout: dropping the connections of requests still running');
        server.closeAllConnections();
      }
      // After the drain: a filter flow must still see the writes of requests that were in flight.
      app.close();
      await realtimeClosed;
      await rateLimit?.close();
      metrics?.close();
      // Last: the spans of the requests that just drained are still buffered.
      await tracing?.shutdown(config.server.shutdownTimeoutMs);
    },
  };
}
