import { LRUCache } from 'lru-cache';
import { ALL, type CacheEntry, type CacheStore } from './cache-store.ts';

interface Stored {
  entry: CacheEntry;
  tags: readonly string[];
  startedAt: number;
}

/** Entries in this process, bounded by the bytes of their bodies (least recently used leave first). */
export class MemoryStore implements CacheStore {
  readonly #entries: LRUCache<string, Stored>;
  /** Tag → the purge number that last named it. */
  readonly #purged = new Map<string, number>();
  #sequence = 0;

  constructor(maxSize: number) {
    this.#entries = new LRUCache<string, Stored>({ maxSize, sizeCalculation: (stored) => Math.max(1, stored.entry.body.length + 200) });
  }

  async sequence(): Promise<number> {
    return this.#sequence;
  }

  async get(key: string): Promise<CacheEntry | null> {
    const stored = this.#entries.get(key);
    if (!stored) return null;
    if (this.#stale(stored.tags, stored.startedAt)) {
      this.#entries.delete(key);
      return null;
    }
    return stored.entry;
  }

  async set(key: string, entry: CacheEntry, tags: readonly string[], startedAt: number, ttlMs: number): Promise<void> {
    if (this.#stale(tags, startedAt)) return;
    const encoded = typeof entry.body === 'string' ? { ...entry, body: Buffer.from(entry.body) } : entry;
    this.#entries.set(key, { entry: encoded, tags, startedAt }, { ttl: ttlMs });
  }

  async purge(tags: readonly string[]): Promise<void> {
    const sequence = ++this.#sequence;
    if (tags.includes(ALL)) this.#entries.clear();
    for (const tag of tags) this.#purged.set(tag, sequence);
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }

  #stale(tags: readonly string[], startedAt: number): boolean {
    if ((this.#purged.get(ALL) ?? 0) > startedAt) return true;
    return tags.some((tag) => (this.#purged.get(tag) ?? 0) > startedAt);
  }
}
