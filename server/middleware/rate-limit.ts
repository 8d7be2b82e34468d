import { Redis } from 'ioredis';
import type { Context, Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { SESSION_COOKIE } from '../auth/session-cookie.ts';
import type { Config } from '../config/index.ts';
import { RequestsExceededError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { outageNotice } from '../redis/outage-notice.ts';

/**
 * The request rate limiter (RATE_LIMITER_*). Two halves, because who the caller is is known only after
 * the accountability middleware, but anonymous floods should be turned away before their bodies are parsed:
 * - `beforeAuth` (before the body parser) charges requests that carry no credentials to their IP address,
 *   and charges requests whose credentials are then rejected (401/403 before `afterAuth`) to the IP too,
 *   so guessing tokens is limited;
 * - `afterAuth` (after accountability) charges the signed-in user, or the IP address of a public caller.
 */
export interface RateLimit {
  beforeAuth: Middleware;
  afterAuth: Middleware;
  /** Resolves once Redis is connected (or has failed once: counts are then kept in memory until it is back). */
  ready: Promise<void>;
  /** Disconnects from Redis. */
  close(): Promise<void>;
}

export interface RateLimitOptions {
  /** Redis key prefix; tests give each limiter its own. @default tessera:rate-limit */
  keyPrefix?: string;
}

/** ctx.state entry: the key this request was charged to. */
const CHARGED = 'rateLimitKey';

function carriesCredentials(ctx: Context): boolean {
  return Boolean(ctx.get('Authorization') || ctx.query.access_token || ctx.cookies.get(SESSION_COOKIE));
}

/** Builds the limiter RATE_LIMITER_STORE selects: Redis with an in-memory insurance limiter, or memory. */
export function createRateLimit(config: Config, logger: Logger, options: RateLimitOptions = {}): RateLimit {
  const { points, durationMs, store } = config.rateLimiter;
  const keyPrefix = options.keyPrefix ?? 'tessera:rate-limit';
  const duration = Math.ceil(durationMs / 1000);
  const memory = new RateLimiterMemory({ points, duration, keyPrefix });
  let redis: Redis | null = null;
  let limiter: RateLimiterAbstract = memory;
  let ready = Promise.resolve();
  if (store === 'redis' && config.redis.url) {
    // No offline queue and no retries per command: while Redis is unreachable every call fails at once
    // and the insurance limiter counts in this process instead of requests waiting on Redis.
    redis = new Redis(config.redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: false });
    const reaching = outageNotice(logger, { lost: 'redis unavailable to the rate limiter: counting in memory until it is back', restored: 'rate limiter counting in redis again' });
    redis.on('error', (error) => reaching.failed(error));
    redis.on('ready', () => reaching.succeeded());
    const client = redis;
    ready = new Promise((resolve) => {
      client.once('ready', () => resolve());
      client.once('error', () => resolve());
    });
    limiter = new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix, insuranceLimiter: memory, rejectIfRedisNotReady: true });
  }

  async function charge(ctx: Context, key: string): Promise<void> {
    ctx.state[CHARGED] = key;
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        ctx.set('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
        throw new RequestsExceededError(`Too many requests: at most ${points} per ${duration} s. Try again later.`, { limit: points, window: duration });
      }
      // Both stores failed (should not happen with the memory insurance): never block traffic over it.
      logger.warn({ err: rejection, key }, 'rate limiter unavailable; request let through');
    }
  }

  return {
    ready,
    beforeAuth: async (ctx, next) => {
      if (!carriesCredentials(ctx)) {
        await charge(ctx, `ip:${ctx.ip}`);
        return next();
      }
      try {
        await next();
      } catch (error) {
        // Rejected credentials never reached afterAuth: charge the address they came from.
        if (!ctx.state[CHARGED]) await charge(ctx, `ip:${ctx.ip}`);
        throw error;
      }
    },
    afterAuth: async (ctx, next) => {
      if (!ctx.state[CHARGED]) {
        const user = ctx.state.accountability?.user as string | null | undefined;
        await charge(ctx, user ? `user:${user}` : `ip:${ctx.ip}`);
      }
      return next();
    },
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}
