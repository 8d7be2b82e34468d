import type { Kysely } from 'kysely';
import type { Logger } from '../logger.ts';
import { openBroadcast, type Broadcast } from '../redis/broadcast.ts';
import { readAccessStamp, type AccessStampPublisher, type AccessStamps } from './access-stamps.ts';

/** The Redis channel (after the project's namespace) ended access is announced on. */
export const ACCESS_CHANNEL = 'access-ended';

/** While this instance cannot hear the others, a cached stamp is read again after this long (ms). */
export const OUTAGE_REFRESH_MS = 5_000;

/**
 * Every user's access stamp as this instance knows it, so checking an access token costs no database
 * read: a user's stamp is read once (on the first token of theirs this instance sees) and then changed
 * only by what this instance publishes or hears from the others through Redis.
 */
export interface AccessStampCache extends AccessStampPublisher {
  /** Epoch ms at or before which `user`'s access tokens are refused; a number when known, else one read. */
  validAfter(user: string): number | Promise<number>;
  /** Resolves once this instance hears the others (or has given up waiting for Redis). */
  ready: Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  stamp: number;
  readAt: number;
}

/**
 * Without `redisUrl` the stamps live in this process only (one instance). With it, published stamps go to
 * every instance; an instance that may have missed some (Redis away, then back) forgets what it knew and
 * reads again, and while it cannot hear the others it reads a stamp again at most every OUTAGE_REFRESH_MS.
 */
export function createAccessStampCache(db: () => Kysely<any>, options: { redisUrl: string | null; logger: Logger; namespace: string; capacity?: number; now?: () => number }): AccessStampCache {
  const capacity = options.capacity ?? 10_000;
  const now = options.now ?? Date.now;
  let entries = new Map<string, Entry>();
  const reads = new Map<string, Promise<number>>();

  const store = (user: string, stamp: number, readAt: number) => {
    entries.delete(user);
    if (entries.size >= capacity) entries.delete(entries.keys().next().value!);
    entries.set(user, { stamp, readAt });
  };
  // Stamps only grow (a later cut, or the user's deletion), so whatever arrives in whatever order, the larger wins.
  const raise = (stamps: AccessStamps) => {
    for (const [user, stamp] of stamps) {
      const known = entries.get(user);
      store(user, Math.max(known?.stamp ?? 0, stamp), known?.readAt ?? now());
    }
  };

  const broadcast: Broadcast | null = options.redisUrl
    ? openBroadcast(options.redisUrl, options.logger, options.namespace, ACCESS_CHANNEL, {
        message(text) {
          const stamps = decodeStamps(text);
          if (stamps) raise(stamps);
        },
        missed() {
          entries = new Map();
        },
      })
    : null;

  const fresh = (entry: Entry) => !broadcast || broadcast.listening() || now() - entry.readAt < OUTAGE_REFRESH_MS;

  return {
    validAfter(user) {
      const known = entries.get(user);
      if (known && fresh(known)) return known.stamp;
      let read = reads.get(user);
      if (!read) {
        const generation = entries;
        const startedAt = now();
        read = readAccessStamp(db(), user).then(
          (stamp) => {
            reads.delete(user);
            // A stamp heard meanwhile may be newer than the row read; after `missed`, the read may be stale: not kept.
            const merged = Math.max(stamp, generation.get(user)?.stamp ?? 0);
            if (generation === entries) store(user, merged, startedAt);
            return merged;
          },
          (error: unknown) => {
            reads.delete(user);
            throw error;
          },
        );
        reads.set(user, read);
      }
      return read;
    },
    publish(stamps) {
      if (stamps.size === 0) return;
      raise(stamps);
      broadcast?.send(encodeStamps(stamps));
    },
    ready: broadcast?.ready ?? Promise.resolve(),
    close: async () => {
      await broadcast?.close();
    },
  };
}

/** `[[user, stamp | null], …]`: JSON has no Infinity (a deleted user), so it travels as null. */
function encodeStamps(stamps: AccessStamps): string {
  return JSON.stringify([...stamps].map(([user, stamp]) => [user, Number.isFinite(stamp) ? stamp : null]));
}

function decodeStamps(text: string): AccessStamps | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return null;
    const stamps: AccessStamps = new Map();
    for (const pair of parsed) {
      if (Array.isArray(pair) && typeof pair[0] === 'string' && (typeof pair[1] === 'number' || pair[1] === null)) stamps.set(pair[0], pair[1] ?? Infinity);
    }
    return stamps;
  } catch {
    return null;
  }
}
