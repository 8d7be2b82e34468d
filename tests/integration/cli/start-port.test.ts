import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';
import { adminQuery } from '../../helpers/postgres.ts';
import { createEmptyDatabase } from '../../helpers/test-database.ts';

afterAll(() => killSpawned());

function occupy(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

describe('tessera start on a busy port', () => {
  it('says which port is busy and how to choose another, before creating the admin whose password is shown once', { timeout: 60_000 }, async () => {
    const database = await createEmptyDatabase();
    const cwd = mkdtempSync(path.join(tmpdir(), 'tessera-port-'));
    const { server: blocker, port } = await occupy();
    try {
      const busy = spawnCli(['start'], { cwd, env: { DB_URL: database.url, PORT: String(port), HOST: '127.0.0.1' } });
      expect(await busy.exited()).toBe(1);
      expect(busy.output()).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(busy.output()).toContain(`PORT=${port + 1}`);
      expect(busy.output()).not.toContain('EADDRINUSE');
      // Nothing was migrated or seeded: the next start still creates the admin and shows its password.
      const { rows } = await adminQuery(`select count(*)::int as n from pg_stat_activity where datname = '${database.name}'`);
      expect(rows[0].n).toBe(0);
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
      const free = spawnCli(['start'], { cwd, env: { DB_URL: database.url, PORT: String(port), HOST: '127.0.0.1' } });
      try {
        await free.waitFor(/password:\s+\S+\s+\(shown once/);
        expect((await fetch(`http://127.0.0.1:${port}/server/health`)).status).toBe(200);
      } finally {
        expect(await free.stop('SIGTERM')).toBe(0);
      }
    } finally {
      blocker.close();
      rmSync(cwd, { recursive: true, force: true });
      await database.drop();
    }
  });
});
