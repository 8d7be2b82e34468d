import type { Logger } from '../logger.ts';
import { openBroadcast } from './broadcast.ts';

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
  // A topic said while Redis is down is sent once it is back (openBroadcast keeps it).
  const broadcast = openBroadcast(redisUrl, logger, namespace, CHANGES_CHANNEL, {
    message: (topic) => {
      if (listeners.has(topic as ChangeTopic)) notify(topic as ChangeTopic);
    },
    // Whatever was announced while this instance was not listening is lost: every topic re-reads.
    missed: () => {
      for (const topic of listeners.keys()) notify(topic);
    },
  });
  return { announce: (topic) => broadcast.send(topic), on, listening: () => broadcast.listening(), close: () => broadcast.close() };
}
