/** A cached response. */
export interface CacheEntry {
  /** Strong validator of `body` (quoted, as sent in ETag). */
  etag: string;
  /** Content-Type of the response. */
  type: string;
  /** The JSON text; the memory store keeps it encoded, so a hit writes bytes without encoding them again. */
  body: string | Buffer;
}

/** The tag that stands for every entry: a purge of it empties the cache. */
export const ALL = '*';

/**
 * Where cached responses live. Entries are invalidated by purge sequence numbers rather than deleted one by
 * one: every purge takes the next number and records it against the tags it names; an entry is valid only
 * while none of its tags (nor ALL) was purged after the sequence its read started at. A read that raced a
 * write can therefore never leave behind an entry that outlives the write's purge.
 */
export interface CacheStore {
  /** The latest purge number, taken before a read starts; null when the store cannot be trusted now. */
  sequence(): Promise<number | null>;
  /** The entry under `key` if no purge since its read touched its tags. */
  get(key: string): Promise<CacheEntry | null>;
  /** Keeps `entry` for `ttlMs`, valid until one of `tags` is purged after `startedAt`. */
  set(key: string, entry: CacheEntry, tags: readonly string[], startedAt: number, ttlMs: number): Promise<void>;
  /** Invalidates every entry tagged with one of `tags` (ALL: every entry). */
  purge(tags: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
