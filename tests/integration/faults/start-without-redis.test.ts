import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';
import { freePort } from '../../helpers/own-servers.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';

afterAll(() => killSpawned());

describe('tessera start while Redis is down', () => {
  it('starts, serves and signs in, reporting Redis as a warning', { timeout: 60_000 }, async () => {
    const database = await createMigratedDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-no-redis-'));
    try {
      // A free port: nothing answers there, as with a Redis that is down.
      const redisUrl = `redis://127.0.0.1:${await freePort()}`;
      const server = spawnCli(['start'], {
        cwd: dir,
        env: { PORT: '0', HOST: '127.0.0.1', DB_URL: database.url, REDIS_URL: redisUrl, ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'ops-password-1' },
      });
      try {
        const [, , port] = await server.waitFor(/Admin:\s+(http:\/\/localhost:(\d+))\/admin/);
        const url = `http://127.0.0.1:${port}`;
        const health = await fetch(`${url}/server/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'warn' });
        const ready = await fetch(`${url}/server/ready`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({ status: 'warn', checks: { database: { status: 'ok' }, redis: { status: 'warn' } } });
        const signIn = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ops@example.com', password: 'ops-password-1' }) });
        expect(signIn.status).toBe(200);
        expect(server.output()).not.toContain('max retries per request');
      } finally {
        expect(await server.stop('SIGTERM')).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
