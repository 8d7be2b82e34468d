import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli, spawnCli } from '../../helpers/cli.ts';
import { createEmptyDatabase } from '../../helpers/test-database.ts';

afterAll(() => killSpawned());

const REDIS_URL = 'redis://127.0.0.1:6379';
const PASSWORD = 'workers-password-1';
const READY = /Tessera is running \(2 workers\)[\s\S]*Admin:\s+http:\/\/localhost:(\d+)\/admin/;

/** Child processes of `pid`: the cluster's serving workers, or its job process (`tessera worker`) when `jobs`. */
function childrenOf(pid: number, jobs = false): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) return [];
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes('worker') === jobs ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One request on a connection of its own, so the cluster hands each request to the next worker in turn. */
function request(port: number, method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) };
    const sent = http.request({ host: '127.0.0.1', port, method, path: url, agent: false, headers }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: text }));
    });
    sent.on('error', reject);
    sent.end(payload);
  });
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('tessera start --workers', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-workers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses several workers without Redis, naming REDIS_URL', async () => {
    const result = await runCli(['start', '--workers', '2'], { cwd: dir, env: { DB_URL: 'postgres://postgres@127.0.0.1:5432/unused', PORT: '0' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--workers 2 needs REDIS_URL/);
  });

  it('exits 1 when the first worker cannot prepare the database, leaving no worker behind', { timeout: 60_000 }, async () => {
    const server = spawnCli(['start', '--workers', '2'], { cwd: dir, env: { DB_URL: 'postgres://postgres@127.0.0.1:1/nowhere', REDIS_URL, PORT: '0', HOST: '127.0.0.1' } });
    expect(await server.exited()).toBe(1);
    expect(server.output()).toMatch(/first worker stopped \(exit 1\) before the database was ready/);
    expect(childrenOf(server.child.pid!)).toEqual([]);
  });

  it('refuses a worker count that is not a whole number', async () => {
    const result = await runCli(['start', '--workers', 'many'], { cwd: dir, env: { PORT: '0' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--workers must be a whole number/);
  });

  it('serves from two workers that share schema changes through Redis, replaces a dead worker and stops on SIGTERM', { timeout: 180_000 }, async () => {
    const database = await createEmptyDatabase();
    try {
      const server = spawnCli(['start', '--workers', '2'], { cwd: dir, env: { DB_URL: database.url, REDIS_URL, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, JOBS_WORKER: 'process' } });
      const port = Number((await server.waitFor(READY, 120_000))[1]);
      const primary = server.child.pid!;
      const workers = childrenOf(primary);
      expect(workers).toHaveLength(2);
      // JOBS_WORKER=process: the primary runs the cluster's one job process (the serving workers run none).
      await waitUntil('the job process runs', () => childrenOf(primary, true).length === 1);
      const [jobProcess] = childrenOf(primary, true);
      for (const worker of workers) expect(childrenOf(worker, true)).toEqual([]);

      const login = await request(port, 'POST', '/auth/login', undefined, { email: 'admin@example.com', password: PASSWORD });
      expect(login.status).toBe(200);
      const token = (JSON.parse(login.body) as { data: { access_token: string } }).data.access_token;

      // Each worker reads (and caches) the schema overview before the change.
      for (let i = 0; i < 6; i++) expect((await request(port, 'GET', '/collections', token)).status).toBe(200);
      const created = await request(port, 'POST', '/collections', token, { collection: 'notes', schema: {}, fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'title', type: 'string' }] });
      expect(created.status).toBe(200);
      // Round-robin hands consecutive connections to alternate workers: six answers in a row come from both.
      await waitUntil('both workers know the new collection', async () => {
        for (let i = 0; i < 6; i++) if ((await request(port, 'GET', '/items/notes', token)).status !== 200) return false;
        return true;
      });
      expect((await request(port, 'POST', '/items/notes', token, { title: 'from a worker' })).status).toBe(200);

      process.kill(workers[0]!, 'SIGKILL');
      await waitUntil('a new worker replaces the dead one', () => childrenOf(primary).filter((pid) => !workers.includes(pid)).length === 1 && !alive(workers[0]!));
      await server.waitFor(/worker died; starting a new one/);
      await waitUntil('the replacement serves', async () => {
        for (let i = 0; i < 4; i++) if ((await request(port, 'GET', '/items/notes', token).catch(() => ({ status: 0 }))).status !== 200) return false;
        return true;
      }, 60_000);

      const serving = childrenOf(primary);
      expect(await server.stop('SIGTERM')).toBe(0);
      expect(server.output()).toContain('Tessera stopped.');
      for (const pid of serving) expect(alive(pid)).toBe(false);
      expect(alive(jobProcess!)).toBe(false);
    } finally {
      await database.drop();
    }
  });
});

describe('tessera start --timings', () => {
  it('prints every start phase with wall time, CPU time and memory, and the total since the process started', { timeout: 120_000 }, async () => {
    const database = await createEmptyDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-timings-'));
    try {
      const server = spawnCli(['start', '--timings'], { cwd: dir, env: { DB_URL: database.url, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'info' } });
      try {
        const table = (await server.waitFor(/Start timings \(pid \d+\):\n((?:.*\n)*?.*since the process started\)\n.*memory: rss \d+ MB.*)/, 90_000))[1]!;
        const phases = [...table.matchAll(/^ {2}(\S.*?)\s+(\d+) ms\s+cpu\s+(\d+) ms\s+rss\s+(\d+) MB$/gm)].map((match) => ({ name: match[1], ms: Number(match[2]), cpuMs: Number(match[3]), rssMb: Number(match[4]) }));
        expect(phases.map((phase) => phase.name)).toEqual(['load', 'config', 'admin check', 'database connect', 'migrations check', 'bootstrap', 'app build', 'listen', 'first ping', 'schema load']);
        for (const phase of phases) expect(phase.rssMb).toBeGreaterThan(20);
        const total = Number(table.match(/total\s+(\d+) ms/)![1]);
        expect(total).toBeGreaterThanOrEqual(phases.reduce((sum, phase) => sum + phase.ms, 0) - phases.length);
        // The same figures reach the log: RSS per phase and the start time.
        const logged = JSON.parse(server.output().split('\n').find((line) => line.includes('"server started"'))!) as { rssMb: Record<string, number>; startMs: number };
        expect(Object.keys(logged.rssMb)).toEqual(['loaded', 'adminChecked', 'databaseOpened', 'migrated', 'bootstrapped', 'listening', 'peak']);
        expect(logged.startMs).toBeGreaterThan(0);
      } finally {
        expect(await server.stop('SIGTERM')).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
