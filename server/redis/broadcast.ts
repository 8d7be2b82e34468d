import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import { createRedisClient, REDIS_COMMAND_TIMEOUT_MS } from './redis-client.ts';
import { outageNotice } from './outage-notice.ts';

/** How long startup waits for the first subscription before going on without Redis (ms). */
const START_WAIT_MS = 3_000;

/** Messages kept while Redis cannot take them, sent once it is back; the oldest go first past this. */
const MAX_UNSENT = 1_000;

/** A Redis pub/sub channel shared by every instance of one project. */
export interface Broadcast {
  /** Resolves once this instance listens, or has given up waiting for Redis. */
  ready: Promise<void>;
  /** Whether this instance currently hears the other instances. */
  listening(): boolean;
  /** Tells the other instances (never this one); kept and sent later while Redis is away. */
  send(message: string): void;
  close(): Promise<void>;
}

/** What a broadcast's owner does with what it hears. */
export interface BroadcastListener {
  /** A message of another instance. */
  message(text: string): void;
  /** (Re)subscribed: whatever was said while this instance was not listening is lost. */
  missed(): void;
}

/**
 * Opens `namespace + name` on Redis with a publishing and a subscribing connection. Each message carries
 * the sender's id, so an instance ignores its own.
 */
export function openBroadcast(redisUrl: string, logger: Logger, namespace: string, name: string, listener: BroadcastListener): Broadcast {
  const instance = randomUUID();
  const channel = namespace + name;
  const publisher = createRedisClient(redisUrl, logger, `${name} (publish)`);
  const subscriber = createRedisClient(redisUrl, logger, `${name} (subscribe)`, { subscriber: true });
  const unsent: string[] = [];
  let subscribed = false;
  let closing = false;
  const publishing = outageNotice(logger.child({ channel: name }), { lost: 'could not publish; will send what is said when redis is back', restored: 'publishing through redis again' });

  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const timer = setTimeout(() => started(), START_WAIT_MS);
  timer.unref();

  subscriber.on('message', (from, raw: string) => {
    if (from !== channel) return;
    const split = raw.indexOf('\n');
    if (split < 0 || raw.slice(0, split) === instance) return;
    listener.message(raw.slice(split + 1));
  });
  subscriber.on('ready', () => {
    subscriber
      .subscribe(channel)
      .then(() => {
        subscribed = true;
        listener.missed();
        started();
      })
      .catch((error: unknown) => logger.warn({ err: error, channel: name }, 'could not subscribe'));
  });
  subscriber.on('close', () => {
    subscribed = false;
  });
  subscriber.once('error', () => started());

  const keep = (text: string) => {
    if (unsent.length >= MAX_UNSENT) unsent.shift();
    unsent.push(text);
  };
  const publish = (text: string): Promise<unknown> => {
    // Not connected yet (or again): kept for 'ready' rather than failed at once (no offline queue).
    if (publisher.status !== 'ready') return Promise.resolve(keep(text));
    return publisher.publish(channel, `${instance}\n${text}`).then(
      () => publishing.succeeded(),
      (error: unknown) => {
        keep(text);
        publishing.failed(error);
      },
    );
  };
  const flush = () => Promise.all(unsent.splice(0).map(publish));
  publisher.on('ready', () => {
    if (!closing) void flush();
  });
  // A short-lived process (a CLI command) may close before its publisher connected: give it a moment.
  const flushBeforeClose = async () => {
    if (unsent.length === 0 || publisher.status === 'end') return;
    if (publisher.status !== 'ready') await Promise.race([new Promise((resolve) => publisher.once('ready', resolve)), new Promise((resolve) => setTimeout(resolve, REDIS_COMMAND_TIMEOUT_MS).unref())]);
    if (publisher.status === 'ready') await flush();
  };

  return {
    ready,
    listening: () => subscribed,
    send: (text) => void publish(text),
    async close() {
      closing = true;
      clearTimeout(timer);
      await flushBeforeClose();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
