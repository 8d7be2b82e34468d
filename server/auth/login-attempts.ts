import type { Kysely } from 'kysely';
import { endUserAccess, type AccessStampPublisher } from './access-stamps.ts';
import type { Logger } from '../logger.ts';
import { createRedisClient } from '../redis/redis-client.ts';
import { outageNotice } from '../redis/outage-notice.ts';

/** Consecutive failed sign-ins per user (settings.auth_login_attempts), shared by every instance when Redis is configured. */
export interface LoginAttempts {
  /** Records one more failure for the user; returns the consecutive count. */
  fail(userId: string): Promise<number>;
  /** Forgets the user's failures (after a successful sign-in, or once the user is suspended). */
  reset(userId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Failures are forgotten after a day without one, so an old stray typo does not count towards a later
 * suspension (the count is "consecutive", not "ever").
 */
const FAILURE_MEMORY_SECONDS = 24 * 60 * 60;

/** In-process counts: one instance, or tests. */
export function memoryLoginAttempts(now: () => number = Date.now): LoginAttempts {
  const failures = new Map<string, { count: number; last: number }>();
  return {
    async fail(userId) {
      const entry = failures.get(userId);
      const fresh = !entry || now() - entry.last > FAILURE_MEMORY_SECONDS * 1000;
      const count = fresh ? 1 : entry.count + 1;
      failures.set(userId, { count, last: now() });
      return count;
    },
    async reset(userId) {
      failures.delete(userId);
    },
    async close() {
      failures.clear();
    },
  };
}

/**
 * Counts in Redis (INCR + EXPIRE in one MULTI), so two instances see the same number. While Redis cannot
 * be reached (the client fails at once, see redis-client.ts), this instance counts in memory instead and
 * says so: sign-in keeps working without waiting, and an outage does not switch the lockout off.
 */
export function redisLoginAttempts(redisUrl: string, logger: Logger, namespace = 'tessera:'): LoginAttempts {
  const redis = createRedisClient(redisUrl, logger, 'login attempts');
  const local = memoryLoginAttempts();
  const prefix = `${namespace}login-attempts:`;
  const counting = outageNotice(logger, { lost: 'could not count failed sign-ins in redis; counting them in this instance until it is back', restored: 'counting failed sign-ins in redis again' });
  return {
    async fail(userId) {
      const key = prefix + userId;
      try {
        const results = await redis.multi().incr(key).expire(key, FAILURE_MEMORY_SECONDS).exec();
        const [error, count] = results?.[0] ?? [new Error('no reply from Redis'), 0];
        if (error) throw error;
        counting.succeeded();
        return Number(count);
      } catch (error) {
        counting.failed(error);
        return local.fail(userId);
      }
    },
    async reset(userId) {
      await local.reset(userId);
      await redis.del(prefix + userId).then(
        () => counting.succeeded(),
        (error: unknown) => counting.failed(error),
      );
    },
    async close() {
      await redis.quit().catch(() => undefined);
      redis.disconnect();
    },
  };
}

/** The store REDIS_URL selects. */
export function createLoginAttempts(redisUrl: string | null, logger: Logger, namespace?: string): LoginAttempts {
  return redisUrl ? redisLoginAttempts(redisUrl, logger, namespace) : memoryLoginAttempts();
}

/** settings.auth_login_attempts; null (unlimited) when empty, zero, or before the settings row exists. */
export async function readLoginAttemptsLimit(db: Kysely<any>): Promise<number | null> {
  const row = await db.selectFrom('tessera_settings').select('auth_login_attempts').executeTakeFirst();
  const limit = row?.auth_login_attempts;
  return typeof limit === 'number' && limit > 0 ? limit : null;
}

/**
 * Counts a failed sign-in (wrong password or wrong one-time password) of an active user; the failure that
 * reaches settings.auth_login_attempts suspends the user, who from then on gets USER_SUSPENDED even with
 * the right password, until an administrator sets the status back to active.
 */
export async function recordFailedLogin(db: Kysely<any>, attempts: LoginAttempts, userId: string, accessStamps?: AccessStampPublisher): Promise<void> {
  const limit = await readLoginAttemptsLimit(db);
  if (limit === null) return;
  if ((await attempts.fail(userId)) < limit) return;
  // Suspended like an administrator would: the user's sessions and access tokens end too.
  const suspend = async (trx: Kysely<any>) => {
    const suspended = await trx.updateTable('tessera_users').set({ status: 'suspended' }).where('id', '=', userId).where('status', '=', 'active').executeTakeFirst();
    return suspended.numUpdatedRows > 0n ? endUserAccess(trx, [userId]) : new Map<string, number>();
  };
  const ended = db.isTransaction ? await suspend(db) : await db.transaction().execute(suspend);
  accessStamps?.publish(ended);
  await attempts.reset(userId);
}

let processAttempts: LoginAttempts | undefined;

/** An in-memory store for services built without one (the CLI); HTTP services get the app's store. */
export function processLoginAttempts(): LoginAttempts {
  processAttempts ??= memoryLoginAttempts();
  return processAttempts;
}
