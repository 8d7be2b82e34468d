import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { adminQuery } from '../../helpers/postgres.ts';
import { createTestApp } from '../../helpers/test-app.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';

describe('DB_URL with a Unix socket', () => {
  it('reaches PostgreSQL through the socket folder given, URL-encoded, as the host', async () => {
    const database = await createMigratedDatabase();
    const [socketFolder] = (await adminQuery('show unix_socket_directories')).rows[0].unix_socket_directories.split(',');
    const url = new URL(database.url);
    const t = await createTestApp({ DB_URL: `postgres://${url.username}@${encodeURIComponent(socketFolder.trim())}/${database.name}` });
    try {
      const { rows } = await sql<{ address: string | null }>`select inet_server_addr() as address`.execute(t.system.db);
      expect(rows).toEqual([{ address: null }]);
      await t.request.get('/server/ping').expect(200);
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
