import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { classifyDatabaseFault } from '../../../server/database/database-faults.ts';
import { openDatabase } from '../../../server/database/database.ts';
import { createLogger } from '../../../server/logger.ts';

describe('a PostgreSQL host that takes connections and never answers (a half-dead network path)', () => {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket));
  let url = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    url = `postgres://postgres@127.0.0.1:${(silent.address() as { port: number }).port}/tessera`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('gives up after DB_CONNECT_TIMEOUT with an error answered as 503, instead of waiting for minutes', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DB_URL: url, DB_CONNECT_TIMEOUT: '1s', LOG_LEVEL: 'silent' });
    const started = Date.now();
    let failure: unknown = null;
    try {
      const database = await openDatabase(config, createLogger(config.log));
      try {
        await database.ping();
      } finally {
        await database.close();
      }
    } catch (error) {
      failure = error;
    }
    const elapsed = Date.now() - started;
    expect(failure).not.toBeNull();
    expect(classifyDatabaseFault(failure)).toBe('unavailable');
    expect(elapsed).toBeLessThan(5_000);
  }, 15_000);
});
