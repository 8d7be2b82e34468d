import { hostname } from 'node:os';
import type { AppContext } from './app-context.ts';
import { packageVersion } from './version.ts';

/** How long a health check waits for a dependency before calling it down (ms). */
const CHECK_TIMEOUT_MS = 2_000;

/** Runs `check` with a time limit; its duration, or the error it failed with. */
export async function timedCheck(check: () => Promise<unknown>): Promise<{ ms: number; error?: unknown }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS)))]);
    return { ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ms: Math.round(performance.now() - started), error };
  } finally {
    clearTimeout(timer);
  }
}

/** What `/server/health` (REST) and `server_health` (GraphQL) answer, and the database error when it is down. */
export interface HealthReport {
  body: { status: 'ok' | 'warn' | 'error'; checks: Record<string, unknown> };
  databaseError?: unknown;
}

/**
 * Directus-style health: `error` when the database is down (take the instance out of rotation); Redis down
 * is only `warn`, since every use of it has a local fallback.
 */
export async function checkHealth(app: AppContext): Promise<HealthReport> {
  const pingRedis = app.pingRedis;
  const [database, redis] = await Promise.all([timedCheck(() => app.database.ping()), pingRedis ? timedCheck(pingRedis) : null]);
  const checks: Record<string, unknown> = { database: database.error ? { status: 'error', output: 'database unreachable' } : { status: 'ok', responseTime: database.ms } };
  if (redis) checks.redis = redis.error ? { status: 'warn', output: 'redis unreachable: local fallbacks in use' } : { status: 'ok', responseTime: redis.ms };
  const body = { status: database.error ? ('error' as const) : redis?.error ? ('warn' as const) : ('ok' as const), checks };
  return database.error ? { body, databaseError: database.error } : { body };
}

/** This instance: its host and process, so an administrator behind a load balancer sees which one answered. */
const SERVICE_ID = `${hostname()}:${process.pid}`;

/**
 * The health body as Directus shapes it: everyone gets the status (a probe needs no more, and the HTTP status
 * says the same); administrators also get the checks, the release and which instance answered.
 */
export function healthFor(report: HealthReport, admin: boolean): Record<string, unknown> {
  if (!admin) return { status: report.body.status };
  return { status: report.body.status, releaseId: packageVersion(), serviceId: SERVICE_ID, checks: report.body.checks };
}
