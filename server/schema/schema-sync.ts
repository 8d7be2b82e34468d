import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import type { SchemaCache } from './schema-cache.ts';

/** The Redis channel schema changes are announced on. */
export const SCHEMA_CHANNEL = 'tessera:schema-changed';

/** A schema cache that tells other instances about changes and listens for theirs. */
export interface SyncedSchemaCache extends SchemaCache {
  /** Resolves once this instance listens for other instances' changes. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Shares invalidations through Redis pub/sub: a change made on one instance makes every instance rebuild
 * its overview on next use. Messages carry the sender's id so an instance ignores its own.
 */
export function syncSchemaCache(cache: SchemaCache, redisUrl: string, logger: Logger): SyncedSchemaCache {
  const instance = randomUUID();
  const options = { lazyConnect: false, maxRetriesPerRequest: 2 };
  const publisher = new Redis(redisUrl, options);
  const subscriber = new Redis(redisUrl, options);
  for (const client of [publisher, subscriber]) client.on('error', (error) => logger.warn({ err: error }, 'redis error (schema sync)'));
  subscriber.on('message', (channel, message) => {
    if (channel === SCHEMA_CHANNEL && message !== instance) cache.invalidate();
  });
  const ready = subscriber.subscribe(SCHEMA_CHANNEL).then(() => undefined);
  return {
    ready,
    get: () => cache.get(),
    invalidate() {
      cache.invalidate();
      publisher.publish(SCHEMA_CHANNEL, instance).catch((error: unknown) => logger.warn({ err: error }, 'could not announce a schema change'));
    },
    async close() {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
