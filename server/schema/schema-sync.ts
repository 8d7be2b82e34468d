import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import { createRedisClient } from '../redis/redis-client.ts';
import { outageNotice } from '../redis/outage-notice.ts';
import type { SchemaCache } from './schema-cache.ts';

/** The Redis channel (after the project's namespace) schema changes are announced on. */
export const SCHEMA_CHANNEL = 'schema-changed';

/** While this instance cannot hear other instances, its schema overview is re-read at most this often (ms). */
export const OUTAGE_REFRESH_MS = 5_000;

/** How long startup waits for the first subscription before going on without Redis (ms). */
const START_WAIT_MS = 3_000;

/**
 * What an instance announces: its id (it ignores its own messages) and the collections it changed; without
 * `collections` every instance reads the whole schema again. Instances before incremental invalidation sent
 * the bare id, which still means "all of it".
 */
interface SchemaMessage {
  from: string;
  collections?: string[];
}

/** The message as sent; anything unreadable counts as a change to all of the schema. */
function parseMessage(message: string): SchemaMessage {
  try {
    const parsed = JSON.parse(message) as Partial<SchemaMessage>;
    if (typeof parsed === 'object' && parsed !== null && typeof parsed.from === 'string') {
      const names = Array.isArray(parsed.collections) && parsed.collections.every((name) => typeof name === 'string') ? parsed.collections : undefined;
      return { from: parsed.from, ...(names ? { collections: names } : {}) };
    }
  } catch {
    // A bare instance id (or something else): below.
  }
  return { from: message };
}

/** A schema cache that tells other instances about changes and listens for theirs. */
export interface SyncedSchemaCache extends SchemaCache {
  /** Resolves once this instance listens for other instances' changes, or has given up waiting for Redis. */
  ready: Promise<void>;
  /** Whether this instance currently hears other instances' changes. */
  listening(): boolean;
  /** Round trip to Redis in ms; throws while Redis is unreachable. */
  ping(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Shares invalidations through Redis pub/sub: a change made on one instance makes every instance re-read
 * the collections it names (or the whole overview) on next use. Messages carry the sender's id so an
 * instance ignores its own.
 *
 * Redis may go away. Then a change cannot be announced: it is announced again once the publisher is back.
 * Changes of other instances cannot be heard: every (re)subscription drops the local overview (and the
 * permissions derived from it), and until then the overview is re-read at most every OUTAGE_REFRESH_MS.
 */
export function syncSchemaCache(cache: SchemaCache, redisUrl: string, logger: Logger, namespace: string): SyncedSchemaCache {
  const instance = randomUUID();
  const channel = namespace + SCHEMA_CHANNEL;
  const publisher = createRedisClient(redisUrl, logger, 'schema sync (publish)');
  const subscriber = createRedisClient(redisUrl, logger, 'schema sync (subscribe)', { subscriber: true });
  let subscribed = false;
  let unannounced = false;
  let refreshedAt = Date.now();
  let closing = false;
  const announcing = outageNotice(logger, { lost: 'could not announce a schema change; will announce it when redis is back', restored: 'announced the schema changes made while redis was down' });

  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const timer = setTimeout(() => started(), START_WAIT_MS);
  timer.unref();

  subscriber.on('message', (from, message) => {
    if (from !== channel) return;
    const parsed = parseMessage(message);
    if (parsed.from !== instance) cache.invalidate(parsed.collections);
  });
  subscriber.on('ready', () => {
    subscriber
      .subscribe(channel)
      .then(() => {
        subscribed = true;
        // Whatever other instances announced while we were not listening is lost: start afresh.
        cache.invalidate();
        refreshedAt = Date.now();
        started();
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not subscribe to schema changes'));
  });
  subscriber.on('close', () => {
    subscribed = false;
  });
  // No Redis at startup: start anyway (the outage refresh covers it) instead of waiting out the timer.
  subscriber.once('error', () => started());

  const announce = (collections?: string[]) => {
    publisher
      .publish(channel, JSON.stringify({ from: instance, ...(collections ? { collections } : {}) }))
      .then(() => {
        unannounced = false;
        announcing.succeeded();
      })
      .catch((error: unknown) => {
        // Which collections went unheard is not kept: the late announcement makes everyone read it all.
        unannounced = true;
        announcing.failed(error);
      });
  };
  publisher.on('ready', () => {
    if (unannounced && !closing) announce();
  });

  return {
    ready,
    listening: () => subscribed,
    get() {
      if (!subscribed && Date.now() - refreshedAt > OUTAGE_REFRESH_MS) {
        refreshedAt = Date.now();
        cache.invalidate();
      }
      return cache.get();
    },
    invalidate(collections) {
      const names = collections === undefined ? undefined : [...collections];
      cache.invalidate(names);
      announce(names);
    },
    peek: () => cache.peek(),
    async ping() {
      const started = performance.now();
      await publisher.ping();
      return Math.round(performance.now() - started);
    },
    async close() {
      closing = true;
      clearTimeout(timer);
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
