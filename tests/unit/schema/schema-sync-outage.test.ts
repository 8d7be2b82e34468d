import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../server/logger.ts';
import type { SchemaOverview } from '../../../server/schema/overview.ts';
import { createSchemaCache } from '../../../server/schema/schema-cache.ts';
import { OUTAGE_REFRESH_MS, syncSchemaCache } from '../../../server/schema/schema-sync.ts';
import { freePort } from '../../helpers/own-servers.ts';

afterEach(() => vi.useRealTimers());

describe('schema sync while Redis is unreachable', () => {
  it('starts at once, and re-reads the schema at most every OUTAGE_REFRESH_MS since it cannot hear other instances', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let reads = 0;
    const local = createSchemaCache(
      () => null as never,
      async () => {
        reads += 1;
        return {} as SchemaOverview;
      },
    );
    const synced = syncSchemaCache(local, `redis://127.0.0.1:${await freePort()}`, createLogger({ level: 'silent', style: 'raw' }), 'test:');
    try {
      const started = performance.now();
      await synced.ready;
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(synced.listening()).toBe(false);

      await synced.get();
      await synced.get();
      expect(reads).toBe(1);
      vi.advanceTimersByTime(OUTAGE_REFRESH_MS - 100);
      await synced.get();
      expect(reads).toBe(1);
      vi.advanceTimersByTime(200);
      await synced.get();
      await synced.get();
      expect(reads).toBe(2);
      await expect(synced.ping()).rejects.toThrow();
    } finally {
      await synced.close();
    }
  });
});
