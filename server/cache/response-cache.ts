import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.ts';
import type { Logger } from '../logger.ts';
import { createRedisClient } from '../redis/redis-client.ts';
import { outageNotice, type OutageNotice } from '../redis/outage-notice.ts';
import { ALL, type CacheEntry, type CacheStore } from './cache-store.ts';
import { MemoryStore } from './memory-store.ts';
import { RedisStore } from './redis-store.ts';

/**
 * Collections whose writes change what every response may contain (who may read what, the schema, the
 * project's settings): writing them empties the cache instead of purging their own tag.
 */
export const PURGE_ALL_COLLECTIONS: ReadonlySet<string> = new Set([
  'tessera_permissions',
  'tessera_roles',
  'tessera_settings',
  'tessera_collections',
  'tessera_fields',
  'tessera_relations',
  'tessera_migrations',
]);

/** The response cache of one process (docs/cache.md). */
export interface ResponseCache {
  readonly enabled: boolean;
  readonly ttlMs: number;
  /** The purge number to stamp a read with before it starts; null: do not store its result. */
  begin(): Promise<number | null>;
  lookup(key: string): Promise<CacheEntry | null>;
  store(key: string, entry: CacheEntry, tags: Iterable<string>, startedAt: number): Promise<void>;
  /** After a committed write: purges the responses that read these collections (CACHE_AUTO_PURGE). */
  purgeWritten(collections: Iterable<string>): Promise<void>;
  /** Empties the cache on every instance (schema, permissions, snapshot apply, /utils/cache/clear). */
  purgeAll(): Promise<void>;
  close(): Promise<void>;
}

/** A cache that keeps nothing (CACHE_ENABLED=false). */
export const DISABLED_CACHE: ResponseCache = {
  enabled: false,
  ttlMs: 0,
  begin: async () => null,
  lookup: async () => null,
  store: async () => undefined,
  purgeWritten: async () => undefined,
  purgeAll: async () => undefined,
  close: async () => undefined,
};

/** Builds the cache CACHE_* describes; `namespace` is the project's Redis prefix (server/redis). */
export function createResponseCache(config: Config, logger: Logger, namespace: string): ResponseCache {
  const settings = config.cache;
  if (!settings.enabled) return DISABLED_CACHE;
  const prefix = `${namespace}${settings.namespace}:`;
  const store: CacheStore = settings.store === 'redis' ? new RedisStore(config.redis.url!, prefix, logger) : new MemoryStore(settings.memoryMaxSize);
  // A memory store hears other instances' purges through Redis; a Redis store shares them by itself.
  const fanOut = settings.store === 'memory' && config.redis.url ? new PurgeChannel(config.redis.url, prefix + 'purge', logger, store) : null;

  const inFlight = new Set<Promise<void>>();
  const purge = (tags: string[]): Promise<void> => {
    if (tags.length === 0) return Promise.resolve();
    const done: Promise<void> = store
      .purge(tags)
      .then(() => fanOut?.announce(tags))
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
    return done;
  };

  return {
    enabled: true,
    ttlMs: settings.ttlMs,
    async begin() {
      if (fanOut && !fanOut.listening()) return null;
      return store.sequence();
    },
    async lookup(key) {
      if (fanOut && !fanOut.listening()) return null;
      return store.get(key);
    },
    store: (key, entry, tags, startedAt) => store.set(key, entry, [...tags], startedAt, settings.ttlMs),
    async purgeWritten(collections) {
      const tags = [...collections];
      if (tags.some((collection) => PURGE_ALL_COLLECTIONS.has(collection))) return purge([ALL]);
      if (settings.autoPurge) await purge(tags);
    },
    purgeAll: () => purge([ALL]),
    async close() {
      await Promise.allSettled([...inFlight]);
      await fanOut?.close();
      await store.close();
    },
  };
}

/**
 * Purges of memory stores, told to every instance through Redis pub/sub. While this instance is not
 * subscribed it cannot hear purges, so its cache is not used; each (re)subscription empties it.
 */
class PurgeChannel {
  readonly #instance = randomUUID();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #logger: Logger;
  readonly #announcing: OutageNotice;
  #subscribed = false;

  constructor(url: string, channel: string, logger: Logger, store: CacheStore) {
    this.#channel = channel;
    this.#logger = logger;
    this.#announcing = outageNotice(logger, { lost: 'response cache: could not announce purges through redis until it is back', restored: 'response cache: announcing purges through redis again' });
    this.#publisher = createRedisClient(url, logger, 'response cache purge (publish)');
    this.#subscriber = createRedisClient(url, logger, 'response cache purge (subscribe)', { subscriber: true });
    this.#subscriber.on('message', (from: string, message: string) => {
      if (from !== channel) return;
      const { instance, tags } = JSON.parse(message) as { instance: string; tags: string[] };
      if (instance !== this.#instance) void store.purge(tags);
    });
    this.#subscriber.on('ready', () => {
      this.#subscriber
        .subscribe(channel)
        .then(async () => {
          await store.purge([ALL]);
          this.#subscribed = true;
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'response cache: could not subscribe to purges'));
    });
    this.#subscriber.on('close', () => {
      this.#subscribed = false;
    });
  }

  listening(): boolean {
    return this.#subscribed;
  }

  announce(tags: string[]): void {
    this.#publisher.publish(this.#channel, JSON.stringify({ instance: this.#instance, tags })).then(
      () => this.#announcing.succeeded(),
      (error: unknown) => this.#announcing.failed(error),
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.#publisher.quit(), this.#subscriber.quit()]);
    this.#publisher.disconnect();
    this.#subscriber.disconnect();
  }
}
