import { hostname } from 'node:os';
import type { Middleware } from 'koa';
import type { AppContext } from '../app-context.ts';
import type { RealtimeServer } from '../realtime/realtime-server.ts';
import { packageVersion } from '../version.ts';
import { instrumentPool, readQueues } from './database-metrics.ts';
import { metricSignals } from './metric-signals.ts';
import { metricsAccess } from './metrics-access.ts';
import { methodLabel, routeLabel } from './route-label.ts';

/** The path Prometheus scrapes (Directus's). */
export const METRICS_PATH = '/metrics';

/** Request latency buckets in seconds: from a cached read to a long export. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Pool wait buckets in seconds: mostly no wait at all, a saturated pool in the tail. */
const POOL_WAIT_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

/** This instance's metrics: the middleware that measures requests and serves /metrics, and its sources. */
export interface Metrics {
  /** Times every request by method, route template and status; answers GET /metrics for allowed scrapers. */
  middleware: Middleware;
  /** Reports the connections and subscriptions of the WebSocket endpoint, once the server has one. */
  watchRealtime(realtime: RealtimeServer): void;
  /** The Prometheus text exposition of every metric, read now. */
  render(): Promise<string>;
  /** Stops listening to signals and timing the pool. */
  close(): void;
}

/**
 * Builds the metrics of one instance (METRICS_ENABLED). prom-client is imported here, so with metrics off it
 * is never loaded and no middleware is mounted. Each instance keeps its own registry: Prometheus scrapes
 * each instance and tells them apart by its `instance` label.
 */
export async function createMetrics(app: AppContext): Promise<Metrics> {
  const client = await import('prom-client');
  const registry = new client.Registry();
  // Process memory, CPU, handles, GC and event-loop delay (nodejs_eventloop_lag_*), from prom-client.
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const registers = [registry];

  new client.Gauge({ name: 'tessera_instance_info', help: 'This instance: host name, process id and Tessera version (always 1).', labelNames: ['hostname', 'pid', 'version'], registers }).set(
    { hostname: hostname(), pid: String(process.pid), version: packageVersion() },
    1,
  );
  const requests = new client.Counter({ name: 'tessera_http_requests_total', help: 'HTTP requests answered, by method, route template and status.', labelNames: ['method', 'route', 'status'], registers });
  const durations = new client.Histogram({ name: 'tessera_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method, route template and status.', labelNames: ['method', 'route', 'status'], buckets: DURATION_BUCKETS, registers });
  const cache = new client.Counter({ name: 'tessera_cache_requests_total', help: 'Reads the response cache (CACHE_ENABLED) answered (hit) or passed on (miss).', labelNames: ['result'], registers });
  const poolWait = new client.Histogram({ name: 'tessera_db_pool_wait_seconds', help: 'Time a statement or transaction waited for a pooled database connection.', buckets: POOL_WAIT_BUCKETS, registers });
  const poolConnections = new client.Gauge({ name: 'tessera_db_pool_connections', help: 'Connections of the database pool: in use (busy) or idle.', labelNames: ['state'], registers });
  const poolWaiting = new client.Gauge({ name: 'tessera_db_pool_waiting', help: 'Callers waiting for a pooled database connection right now.', registers });
  const poolMax = new client.Gauge({ name: 'tessera_db_pool_max', help: 'Largest number of connections the pool opens (DB_POOL_MAX).', registers });
  const statementTimeouts = new client.Counter({ name: 'tessera_db_statement_timeouts_total', help: 'Statements PostgreSQL stopped at DB_STATEMENT_TIMEOUT.', registers });
  const queues = {
    jobsQueued: new client.Gauge({ name: 'tessera_jobs_queued', help: 'Unfinished jobs (waiting, running or retrying), by task. Shared by all instances.', labelNames: ['task'], registers }),
    jobsOldestAge: new client.Gauge({ name: 'tessera_jobs_oldest_age_seconds', help: 'Age of the oldest unfinished job, by task. Shared by all instances.', labelNames: ['task'], registers }),
    jobsRetrying: new client.Gauge({ name: 'tessera_jobs_retrying', help: 'Jobs that failed at least once and will be tried again, by task.', labelNames: ['task'], registers }),
    jobsFailed: new client.Gauge({ name: 'tessera_jobs_failed', help: 'Jobs that used all their attempts and failed, by task.', labelNames: ['task'], registers }),
    outboxEvents: new client.Gauge({ name: 'tessera_outbox_events', help: 'Committed item events not yet turned into jobs (automation outbox).', registers }),
    outboxLag: new client.Gauge({ name: 'tessera_outbox_lag_seconds', help: 'Age of the oldest event in the automation outbox (0 when empty).', registers }),
  };
  const realtimeConnections = new client.Gauge({ name: 'tessera_realtime_connections', help: 'Open WebSocket connections of this instance.', registers });
  const realtimeSubscriptions = new client.Gauge({ name: 'tessera_realtime_subscriptions', help: 'Realtime subscriptions of this instance.', registers });
  const extensionErrors = new client.Gauge({ name: 'tessera_extension_load_errors', help: 'Extensions that failed to load at their last (re)load.', registers });

  const pool = await instrumentPool(app, poolWait);
  const onTimeout = () => statementTimeouts.inc();
  metricSignals.statementTimeout.subscribe(onTimeout);
  let realtime: RealtimeServer | null = null;
  const allow = metricsAccess(app.config.metrics);

  const render = async (): Promise<string> => {
    const readings = pool.read();
    poolConnections.set({ state: 'busy' }, readings.total - readings.idle);
    poolConnections.set({ state: 'idle' }, readings.idle);
    poolWaiting.set(readings.waiting);
    poolMax.set(readings.max);
    realtimeConnections.set(realtime?.connections() ?? 0);
    realtimeSubscriptions.set(realtime?.hub.subscriptionCount() ?? 0);
    extensionErrors.set(app.extensions.list().filter((extension) => extension.status === 'error').length);
    try {
      await readQueues(app, queues);
    } catch (error) {
      // The rest of the metrics still help while the database is out: serve them, say why these are stale.
      app.logger.warn({ err: error }, 'metrics: could not read the job queue and outbox');
    }
    return registry.metrics();
  };

  const middleware: Middleware = async (ctx, next) => {
    if (ctx.path === METRICS_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      allow(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.type = registry.contentType;
      ctx.body = await render();
      return;
    }
    const started = performance.now();
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (error) {
      // The error handler outside turns this into the answer; its status is the error's.
      status = typeof (error as { status?: unknown })?.status === 'number' ? (error as { status: number }).status : 500;
      throw error;
    } finally {
      const labels = { method: methodLabel(ctx.method), route: routeLabel(ctx), status: String(status) };
      requests.inc(labels);
      durations.observe(labels, (performance.now() - started) / 1000);
      const cached = ctx.response.get('X-Cache');
      if (cached === 'HIT') cache.inc({ result: 'hit' });
      else if (cached === 'MISS') cache.inc({ result: 'miss' });
    }
  };

  return {
    middleware,
    watchRealtime: (server) => {
      realtime = server;
    },
    render,
    close: () => {
      metricSignals.statementTimeout.unsubscribe(onTimeout);
      pool.restore();
    },
  };
}
