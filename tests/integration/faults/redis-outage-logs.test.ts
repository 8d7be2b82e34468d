import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';
import { startOwnRedis } from '../../helpers/own-servers.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';

afterAll(() => killSpawned());

const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

interface LogLine {
  level: number;
  msg: string;
  purpose?: string;
  failed?: number;
}

async function call(base: string, method: string, url: string, token?: string, body?: unknown): Promise<number> {
  const response = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('logs of a Redis outage under write load', () => {
  it('logs each loss and each recovery once (with counts), not each write', { timeout: 150_000 }, async () => {
    const [redis, database] = await Promise.all([startOwnRedis(), createMigratedDatabase()]);
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-redis-logs-'));
    try {
      // Every per-write use of Redis is on: realtime fan-out, response cache purges, the shared rate limiter.
      const server = spawnCli(['start'], {
        cwd: dir,
        env: {
          PORT: '0',
          HOST: '127.0.0.1',
          DB_URL: database.url,
          REDIS_URL: redis.url,
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: 'info',
          CACHE_ENABLED: 'true',
          RATE_LIMITER_ENABLED: 'true',
          RATE_LIMITER_POINTS: '100000',
        },
      });
      const [, port] = await server.waitFor(/Admin:\s+http:\/\/localhost:(\d+)\/admin/);
      const url = `http://127.0.0.1:${port}`;
      const lines = (): LogLine[] =>
        server
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as LogLine);
      const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
      const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
      expect(await call(url, 'POST', '/collections', token, { collection: 'notes', fields: [{ field: 'title', type: 'string' }] })).toBe(200);

      let acknowledged = 0;
      let stop = false;
      const writer = async () => {
        while (!stop) {
          if ((await call(url, 'POST', '/items/notes', token, { title: 'under load' }).catch(() => 0)) === 200) acknowledged++;
          await call(url, 'GET', '/items/notes?limit=1', token).catch(() => 0);
        }
      };
      const writers = Array.from({ length: 4 }, writer);
      await until('writes flow with redis up', () => acknowledged >= 20);
      const before = lines().length;

      await redis.stop();
      const atStop = acknowledged;
      await until('200 writes acknowledged during the outage', () => acknowledged >= atStop + 200);
      // Sign-ins during the outage: the failure counter is reset in Redis on each.
      for (let i = 0; i < 5; i++) expect(await call(url, 'POST', '/auth/login', undefined, ADMIN)).toBe(200);
      const during = acknowledged - atStop;

      await redis.start();
      await until('the server reaches redis again', async () => ((await (await fetch(`${url}/server/health`)).json()) as { status: string }).status === 'ok');
      const atRestart = acknowledged;
      await until('writes flow after the outage', () => acknowledged >= atRestart + 20);
      stop = true;
      await Promise.all(writers);
      expect(await server.stop('SIGTERM')).toBe(0);

      const outage = lines().slice(before);
      const warnings = outage.filter((line) => line.level >= 40);
      const byMessage = new Map<string, number>();
      for (const line of warnings) byMessage.set(`${line.msg} (${line.purpose ?? '-'})`, (byMessage.get(`${line.msg} (${line.purpose ?? '-'})`) ?? 0) + 1);
      console.log(`redis outage under load: ${during} writes acknowledged while redis was down; ${warnings.length} warning lines:`, Object.fromEntries(byMessage));
      // One line per state change and connection, however many writes: 1,522 warnings in 20 s before.
      for (const [message, count] of byMessage) expect(count, message).toBe(1);
      expect(warnings.length).toBeLessThan(25);
      expect(outage.filter((line) => line.level >= 50)).toEqual([]);
      const restored = outage.find((line) => line.msg.startsWith('announcing item changes through redis again'));
      expect(restored?.failed).toBeGreaterThanOrEqual(during);
      expect(outage.filter((line) => line.msg === 'redis reachable again')).toHaveLength(1);
    } finally {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
