import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';

/** How long a command may wait for Redis before the caller falls back (ms). */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * A Redis connection for an accelerator: Redis is never the source of truth, so a command fails at once
 * while Redis is unreachable (no offline queue, one retry, bounded connect and command time) and its user
 * falls back to a local answer, instead of every request waiting out ioredis's default retries. The
 * client keeps reconnecting in the background (at most every 2 s); an outage and the recovery are each
 * logged once per process (reportDown, reportUp).
 */
export function createRedisClient(url: string, logger: Logger, purpose: string, options: { subscriber?: boolean } = {}): Redis {
  // ioredis loads with the first client: a server without REDIS_URL never pays its memory (about 10 MB).
  const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    // A subscriber's connection is idle by design; a timeout on it would only cut the subscribe call short.
    commandTimeout: options.subscriber ? undefined : REDIS_COMMAND_TIMEOUT_MS,
    // Subscriptions are renewed by their owner on 'ready', so it also learns that it missed messages.
    autoResubscribe: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', (error) => reportDown(url, redis, purpose, logger, error));
  redis.on('ready', () => reportUp(url, redis, logger));
  // Closed for good (quit): no longer part of an outage.
  redis.on('end', () => reportUp(url, redis, null));
  return redis;
}

/** Per Redis URL: the connections of this process that are down, and since when. */
const outages = new Map<string, { down: Set<Redis>; since: number }>();

/**
 * A process holds a dozen connections to one Redis (schema sync, realtime, caches, counters, each with a
 * publisher and a subscriber), and each reports every failed reconnect: the outage is logged once, when the
 * first goes down, and the recovery once, when the last is back.
 */
function reportDown(url: string, connection: Redis, purpose: string, logger: Logger, error: unknown): void {
  let outage = outages.get(url);
  if (!outage) {
    outages.set(url, (outage = { down: new Set(), since: Date.now() }));
    logger.warn({ err: error, purpose }, 'redis unavailable: using local fallbacks until it is back');
  }
  outage.down.add(connection);
}

function reportUp(url: string, connection: Redis, logger: Logger | null): void {
  const outage = outages.get(url);
  if (!outage?.down.delete(connection) || outage.down.size > 0) return;
  outages.delete(url);
  logger?.info({ downMs: Date.now() - outage.since }, 'redis reachable again');
}

/**
 * Prefix of every Redis key and channel of one project: derived from the database it serves, so two
 * projects (or parallel test files) sharing one Redis never see each other's invalidations or counters,
 * while every instance of one project (same DB_URL host, port and database) shares it.
 */
export function redisNamespace(databaseUrl: string | null, dataDir: string): string {
  let identity: string;
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    const host = url.searchParams.get('host') ?? url.hostname;
    identity = `${host}:${url.port || '5432'}/${decodeURIComponent(url.pathname.slice(1))}`;
  } else {
    identity = `embedded:${path.resolve(dataDir)}`;
  }
  return `tessera:${createHash('sha256').update(identity).digest('hex').slice(0, 12)}:`;
}
