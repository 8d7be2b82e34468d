import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import { createRedisClient } from './redis-client.ts';
import { outageNotice } from './outage-notice.ts';

/** The Redis channel (after the project's namespace) configuration changes are announced on. */
export const CHANGES_CHANNEL = 'config-changed';

/** While this instance cannot hear other instances, what it keeps per instance is re-read this often (ms). */
export const UNHEARD_REFRESH_MS = 5_000;

/** What was changed: each topic's listeners re-read it. */
export type ChangeTopic = 'flows';

/**
 * Tells every instance of a project that configuration one of them keeps in memory changed (flows and their
 * operations), so each re-reads it. A cheaper signal than the schema announcement, which also drops the
 * schema overview, the permissions and the response cache of every instance.
 */
export interface ChangeNotices {
  /** Tells the other instances; a topic that could not be announced (Redis down) is announced once Redis is back. */
  announce(topic: ChangeTopic): void;
  /** Calls `listener` when another instance announces `topic`, and on every (re)subscription (changes may have been missed). */
  on(topic: ChangeTopic, listener: () => void): () => void;
  /** Whether this instance hears other instances now; while not, their users re-read every UNHEARD_REFRESH_MS. */
  listening(): boolean;
  close(): Promise<void>;
}

/** Change notices through Redis pub/sub; without `redisUrl` nothing is heard and listening() stays false. */
export function createChangeNotices(redisUrl: string | null, logger: Logger, namespace: string): ChangeNotices {
  const listeners = new Map<ChangeTopic, Set<() => void>>();
  const notify = (topic: ChangeTopic) => {
    for (const listener of listeners.get(topic) ?? []) listener();
  };
  const on = (topic: ChangeTopic, listener: () => void) => {
    const set = listeners.get(topic) ?? new Set();
    listeners.set(topic, set.add(listener));
    return () => void set.delete(listener);
  };
  if (!redisUrl) return { announce: () => undefined, on, listening: () => false, close: async () => undefined };

  const instance = randomUUID();
  const channel = namespace + CHANGES_CHANNEL;
  const publisher = createRedisClient(redisUrl, logger, 'change notices (publish)');
  const subscriber = createRedisClient(redisUrl, logger, 'change notices (subscribe)', { subscriber: true });
  const notice = outageNotice(logger, {
    lost: 'could not announce configuration changes through redis; other instances re-read them every 5 s until it is back',
    restored: 'announcing configuration changes through redis again',
  });
  const unannounced = new Set<ChangeTopic>();
  let subscribed = false;
  let closing = false;

  subscriber.on('message', (from, message: string) => {
    if (from !== channel) return;
    try {
      const parsed = JSON.parse(message) as { from?: unknown; topic?: unknown };
      if (parsed.from !== instance && typeof parsed.topic === 'string' && listeners.has(parsed.topic as ChangeTopic)) notify(parsed.topic as ChangeTopic);
    } catch {
      // Not one of ours: ignored.
    }
  });
  subscriber.on('ready', () => {
    subscriber
      .subscribe(channel)
      .then(() => {
        subscribed = true;
        // Whatever was announced while we were not listening is lost: every topic re-reads.
        for (const topic of listeners.keys()) notify(topic);
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not subscribe to configuration changes'));
  });
  subscriber.on('close', () => {
    subscribed = false;
  });

  const announce = (topic: ChangeTopic) => {
    publisher
      .publish(channel, JSON.stringify({ from: instance, topic }))
      .then(() => {
        unannounced.delete(topic);
        notice.succeeded();
      })
      .catch((error: unknown) => {
        unannounced.add(topic);
        notice.failed(error);
      });
  };
  publisher.on('ready', () => {
    if (!closing) for (const topic of unannounced) announce(topic);
  });

  return {
    announce,
    on,
    listening: () => subscribed,
    async close() {
      closing = true;
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
