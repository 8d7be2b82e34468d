import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';
import { startOwnPostgres } from '../../helpers/own-servers.ts';

afterAll(() => killSpawned());

const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  status?: number;
}

async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('logs of a PostgreSQL restart', () => {
  it('logs one warning per 503 and nothing at error level, the job worker included', { timeout: 150_000 }, async () => {
    const postgres = await startOwnPostgres();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-pg-logs-'));
    try {
      // The default JOBS_WORKER=inline: the job worker (and its LISTEN connection) runs in the server.
      const server = spawnCli(['start'], { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1', DB_URL: postgres.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'info' } });
      const [, port] = await server.waitFor(/Admin:\s+http:\/\/localhost:(\d+)\/admin/, 120_000);
      const url = `http://127.0.0.1:${port}`;
      const lines = (): LogLine[] =>
        server
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as LogLine);
      const post = async (route: string, body: unknown, token?: string) => {
        const response = await fetch(url + route, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : null };
      };
      const token = (await post('/auth/login', ADMIN)).body.data.access_token as string;
      expect((await post('/collections', { collection: 'notes', fields: [{ field: 'title', type: 'string' }] }, token)).status).toBe(200);

      const statuses = new Map<number, number>();
      let stop = false;
      const writer = async () => {
        while (!stop) {
          const { status } = await post('/items/notes', { title: 'note' }, token).catch(() => ({ status: -1 }));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const writers = Array.from({ length: 3 }, writer);
      await until('writes flow', () => (statuses.get(200) ?? 0) >= 20);
      const before = lines().length;

      postgres.stop();
      await until('the job worker noticed the outage', () => server.output().includes('Error with notify listener'));
      await until('some writes answered 503', () => (statuses.get(503) ?? 0) >= 10);
      postgres.start();
      const atRestart = statuses.get(200) ?? 0;
      await until('writes flow again', () => (statuses.get(200) ?? 0) >= atRestart + 20);
      stop = true;
      await Promise.all(writers);
      expect(await server.stop('SIGTERM')).toBe(0);

      const outage = lines().slice(before);
      const unavailable = outage.filter((line) => line.msg === 'database unavailable');
      console.log('statuses', Object.fromEntries(statuses), 'levels', Object.fromEntries(outage.filter((line) => line.level >= 40).map((line) => [line.msg.slice(0, 50), line.level])));
      expect(outage.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
      // One warning per 503 request, and its request line is not a second one.
      expect(unavailable.every((line) => line.level === 40)).toBe(true);
      expect(unavailable.length).toBe(statuses.get(503));
      const requestLines503 = outage.filter((line) => line.msg === 'request' && line.status === 503);
      expect(requestLines503.length).toBe(statuses.get(503));
      expect(requestLines503.every((line) => line.level === 30)).toBe(true);
      expect(outage.filter((line) => line.msg.startsWith('Error with notify listener')).every((line) => line.level === 40)).toBe(true);
    } finally {
      postgres.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
