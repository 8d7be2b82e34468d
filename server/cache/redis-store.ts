import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import { createRedisClient } from '../redis/redis-client.ts';
import { ALL, type CacheEntry, type CacheStore } from './cache-store.ts';

/**
 * Returns the entry's payload when none of its tags was purged after its read started, in one round trip.
 * An entry is `<startedAt>\n<tag,tag…>\n<etag>\n<type>\n<body>`; purge numbers live in one hash.
 */
const GET_SCRIPT = `
local raw = redis.call('GET', KEYS[1])
if not raw then return nil end
local first = string.find(raw, '\\n', 1, true)
local second = string.find(raw, '\\n', first + 1, true)
local started = tonumber(string.sub(raw, 1, first - 1))
local tags = { '${ALL}' }
for tag in string.gmatch(string.sub(raw, first + 1, second - 1), '[^,]+') do tags[#tags + 1] = tag end
local purged = redis.call('HMGET', KEYS[2], unpack(tags))
for i = 1, #purged do
  if purged[i] and tonumber(purged[i]) > started then
    redis.call('DEL', KEYS[1])
    return nil
  end
end
return string.sub(raw, second + 1)
`;

/** Takes the next purge number and records it against every tag given. */
const PURGE_SCRIPT = `
local sequence = redis.call('INCR', KEYS[1])
for i = 1, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], sequence) end
return sequence
`;

interface CacheCommands {
  tesseraCacheGet(entryKey: string, purgedKey: string): Promise<string | null>;
  tesseraCachePurge(sequenceKey: string, purgedKey: string, ...tags: string[]): Promise<number>;
}

/**
 * Entries in Redis, shared by every instance: a purge made by one instance is seen by the next lookup of any
 * other (no message to wait for). When Redis fails a purge, this instance stops using the cache until Redis
 * is back and it has purged everything, since an entry it could not purge may be stale.
 */
export class RedisStore implements CacheStore {
  readonly #redis: Redis & CacheCommands;
  readonly #prefix: string;
  readonly #logger: Logger;
  #owesPurge = false;

  constructor(url: string, prefix: string, logger: Logger) {
    this.#prefix = prefix;
    this.#logger = logger;
    const redis = createRedisClient(url, logger, 'response cache');
    redis.defineCommand('tesseraCacheGet', { numberOfKeys: 2, lua: GET_SCRIPT });
    redis.defineCommand('tesseraCachePurge', { numberOfKeys: 2, lua: PURGE_SCRIPT });
    this.#redis = redis as Redis & CacheCommands;
    redis.on('ready', () => {
      if (this.#owesPurge) void this.purge([ALL]);
    });
  }

  async sequence(): Promise<number | null> {
    if (this.#owesPurge) return null;
    try {
      return Number((await this.#redis.get(this.#prefix + 'sequence')) ?? 0);
    } catch {
      return null;
    }
  }

  async get(key: string): Promise<CacheEntry | null> {
    if (this.#owesPurge) return null;
    let payload: string | null;
    try {
      payload = await this.#redis.tesseraCacheGet(this.#prefix + 'entry:' + key, this.#prefix + 'purged');
    } catch {
      return null;
    }
    if (payload === null) return null;
    const first = payload.indexOf('\n');
    const second = payload.indexOf('\n', first + 1);
    return { etag: payload.slice(0, first), type: payload.slice(first + 1, second), body: payload.slice(second + 1) };
  }

  async set(key: string, entry: CacheEntry, tags: readonly string[], startedAt: number, ttlMs: number): Promise<void> {
    const value = `${startedAt}\n${tags.join(',')}\n${entry.etag}\n${entry.type}\n${entry.body.toString()}`;
    try {
      await this.#redis.set(this.#prefix + 'entry:' + key, value, 'PX', ttlMs);
    } catch {
      // A lost entry is only a miss later.
    }
  }

  async purge(tags: readonly string[]): Promise<void> {
    try {
      await this.#redis.tesseraCachePurge(this.#prefix + 'sequence', this.#prefix + 'purged', ...tags);
      if (tags.includes(ALL)) this.#owesPurge = false;
    } catch (error) {
      if (!this.#owesPurge) this.#logger.warn({ err: error }, 'response cache: purge failed; cache unused until redis is back');
      this.#owesPurge = true;
    }
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => undefined);
    this.#redis.disconnect();
  }
}
