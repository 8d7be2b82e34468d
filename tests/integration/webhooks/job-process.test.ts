import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killSpawned, runCli, spawnCli, type RunningCli } from '../../helpers/cli.ts';
import { createEmptyDatabase } from '../../helpers/test-database.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let receiver: Receiver;
let dir: string;
const ADMIN = { email: 'ops@example.com', password: 'ops-password-1' };

beforeAll(async () => {
  receiver = await startReceiver();
  dir = mkdtempSync(path.join(tmpdir(), 'tessera-job-process-'));
});

afterAll(async () => {
  await killSpawned();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** /proc/<pid>/stat fields after the command name: state, ppid, …, nice (index 16). */
function stat(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Gone, or a zombie nobody has reaped yet: either way no longer running. */
const running = (pid: number) => {
  const fields = stat(pid);
  return fields !== null && fields[0] !== 'Z';
};

/** The `tessera worker` processes whose parent is `parent`. */
function jobChildren(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      if (Number(stat(pid)?.[1]) !== parent || !running(pid)) return false;
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('worker');
      } catch {
        return false;
      }
    });
}

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met in ${timeoutMs} ms (last value ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `test` against a fresh empty database, dropped afterwards whatever happened. */
async function withEmptyDatabase(test: (database: { url: string }) => Promise<void>): Promise<void> {
  const database = await createEmptyDatabase();
  try {
    await test(database);
  } finally {
    await database.drop();
  }
}

function startServer(databaseUrl: string, env: Record<string, string> = {}): RunningCli {
  return spawnCli(['start'], {
    cwd: dir,
    env: { PORT: '0', HOST: '127.0.0.1', DB_URL: databaseUrl, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', ...env },
  });
}

/** Signs in, makes a collection with a webhook on creates to `hookPath`, and returns a function that creates an item. */
async function hookedCollection(server: RunningCli, hookPath: string): Promise<(name: string) => Promise<number>> {
  const [, , port] = await server.waitFor(/Admin:\s+(http:\/\/localhost:(\d+))\/admin/);
  const url = `http://127.0.0.1:${port}`;
  const call = async (route: string, token: string | null, body: unknown) => {
    const response = await fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };
  const token = (await call('/auth/login', null, ADMIN)).body.data.access_token as string;
  expect((await call('/collections', token, { collection: 'events', fields: [{ field: 'name', type: 'string' }] })).status).toBe(200);
  expect((await call('/webhooks', token, { name: 'events', url: `${receiver.url}${hookPath}`, actions: ['create'], collections: ['events'] })).status).toBe(200);
  return async (name) => (await call('/items/events', token, { name })).status;
}

it('runs jobs in the serving process by default (JOBS_WORKER=inline): no child process, the delivery arrives', { timeout: 300_000 }, async () => {
  await withEmptyDatabase(async (database) => {
    const server = startServer(database.url);
    const create = await hookedCollection(server, '/inline');
    expect(await create('inline')).toBe(200);
    const [delivery] = await receiver.waitFor(1, '/inline', 90_000);
    expect(delivery!.body).toMatchObject({ event: 'items.create', collection: 'events', payload: { name: 'inline' } });
    expect(jobChildren(server.child.pid!)).toEqual([]);
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});

it('JOBS_WORKER=process: one `tessera worker` child at nice 10 delivers; SIGTERM stops both', { timeout: 300_000 }, async () => {
  await withEmptyDatabase(async (database) => {
    const server = startServer(database.url, { JOBS_WORKER: 'process' });
    const create = await hookedCollection(server, '/process');
    const [jobPid] = await until(() => jobChildren(server.child.pid!), (pids) => pids.length === 1);
    expect(Number(stat(jobPid!)![16])).toBe(10);
    expect(await create('launch')).toBe(200);
    const [delivery] = await receiver.waitFor(1, '/process', 90_000);
    expect(delivery!.body).toMatchObject({ event: 'items.create', collection: 'events', payload: { name: 'launch' } });
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain('Tessera stopped.');
    expect(running(jobPid!)).toBe(false);
  });
});

it('a server killed with SIGKILL leaves no job process behind: the child notices and stops', { timeout: 300_000 }, async () => {
  await withEmptyDatabase(async (database) => {
    const server = startServer(database.url, { JOBS_WORKER: 'process' });
    await server.waitFor(/Admin:\s+http:\/\/localhost:\d+\/admin/);
    const [jobPid] = await until(() => jobChildren(server.child.pid!), (pids) => pids.length === 1);
    server.child.kill('SIGKILL');
    await until(() => running(jobPid!), (alive) => !alive);
  });
});

it('JOBS_WORKER=process: a job process that dies is replaced after 1 s, and the new one delivers', { timeout: 300_000 }, async () => {
  await withEmptyDatabase(async (database) => {
    const server = startServer(database.url, { JOBS_WORKER: 'process' });
    const create = await hookedCollection(server, '/replaced');
    const [first] = await until(() => jobChildren(server.child.pid!), (pids) => pids.length === 1);
    // A delivery proves the first job process ready (one that dies before that stops the server instead).
    expect(await create('before')).toBe(200);
    await receiver.waitFor(1, '/replaced', 90_000);
    const killedAt = Date.now();
    process.kill(first!, 'SIGKILL');
    await server.waitFor(/the job process stopped; starting a new one/);
    const [second] = await until(() => jobChildren(server.child.pid!), (pids) => pids.length === 1 && pids[0] !== first);
    expect(second).not.toBe(first);
    // Replaced after 1 s, not at once: a job process that dies at start does not spin (docs/automation.md).
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(1_000);
    expect(await create('after the restart')).toBe(200);
    const deliveries = await receiver.waitFor(2, '/replaced', 90_000);
    expect(deliveries[1]!.body).toMatchObject({ payload: { name: 'after the restart' } });
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(running(second!)).toBe(false);
  });
});

it('JOBS_WORKER=process: the job process holds a delivery while the server is saturated (it hears so over IPC), then sends it', { timeout: 300_000 }, async () => {
  await withEmptyDatabase(async (database) => {
    const server = startServer(database.url, { JOBS_WORKER: 'process', JOBS_BUSY_RATE: '0' });
    const create = await hookedCollection(server, '/saturated');
    await until(() => jobChildren(server.child.pid!), (pids) => pids.length === 1);
    expect(await create('warm-up')).toBe(200);
    await receiver.waitFor(1, '/saturated', 90_000);
    const [, , port] = await server.waitFor(/Admin:\s+(http:\/\/localhost:(\d+))\/admin/);
    const client = new pg.Client({ connectionString: database.url });
    // Should the test fail before client.end(), dropping the database ends this connection.
    client.on('error', () => undefined);
    await client.connect();
    const heldJobs = async () => Number((await client.query('select count(*) from graphile_worker._private_jobs where locked_at is not null')).rows[0].count);
    // A sign-in whose body is still arriving keeps a request in flight all the time, which is what saturation
    // measures (server/jobs/foreground-load.ts). Readers in a loop did too, but each left a gap between its
    // requests, and on a fast machine those gaps calmed the server and released the delivery.
    // On a busy machine the set-up's requests may already have saturated it for a moment: only a notice
    // after the upload began counts, and the last notice must say saturated.
    const before = server.output().length;
    const upload = connect(Number(port), '127.0.0.1');
    upload.on('error', () => undefined);
    upload.write(`POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`);
    try {
      // The job process says when it hears so over IPC.
      await until(
        () => [...server.output().slice(before).matchAll(/the server is (no longer )?saturated/g)].at(-1),
        (last) => last !== undefined && last[1] === undefined,
      );
      expect(await create('held')).toBe(200);
      // The sentinel: the job process has taken the delivery's job (locked it) and holds it at its turn.
      await until(heldJobs, (count) => count === 1);
      expect(receiver.received.filter((call) => call.path === '/saturated')).toHaveLength(1);
    } finally {
      upload.destroy();
    }
    const deliveries = await receiver.waitFor(2, '/saturated', 90_000);
    expect(deliveries[1]!.body).toMatchObject({ payload: { name: 'held' } });
    await client.end();
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});

it('JOBS_WORKER=off queues without working; `tessera worker` on its own then delivers and stops on SIGTERM', { timeout: 300_000 }, async () => {
  const database = await createEmptyDatabase();
  const client = new pg.Client({ connectionString: database.url });
  try {
    const server = startServer(database.url, { JOBS_WORKER: 'off' });
    const create = await hookedCollection(server, '/off');
    expect(await create('queued')).toBe(200);
    expect(jobChildren(server.child.pid!)).toEqual([]);
    await client.connect();
    const queued = async () => Number((await client.query('select count(*) from graphile_worker._private_jobs')).rows[0].count);
    // The server's outbox relay turns the committed create into its job; nobody works on it.
    await until(queued, (count) => count === 1);
    // The sentinel: the server's exit. A server that worked jobs would have delivered this one before it, as
    // it finishes the jobs it runs before exiting.
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(receiver.received.filter((call) => call.path === '/off')).toEqual([]);
    expect(await queued()).toBe(1);

    const worker = spawnCli(['worker'], { cwd: dir, env: { DB_URL: database.url, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', LOG_LEVEL: 'info' } });
    const [delivery] = await receiver.waitFor(1, '/off', 90_000);
    expect(delivery!.body).toMatchObject({ payload: { name: 'queued' } });
    await until(queued, (count) => count === 0);
    expect(await worker.stop('SIGTERM')).toBe(0);
  } finally {
    await client.end().catch(() => undefined);
    await database.drop();
  }
});

it('JOBS_WORKER=process needs DB_URL, and so does `tessera worker`: each says so', { timeout: 60_000 }, async () => {
  const start = await runCli(['start'], { cwd: dir, env: { PORT: '0', JOBS_WORKER: 'process', DATA_DIR: path.join(dir, 'data') } });
  expect(start.code).toBe(1);
  expect(start.stderr + start.stdout).toContain('JOBS_WORKER: process needs DB_URL');
  const worker = await runCli(['worker'], { cwd: dir, env: {} });
  expect(worker.code).toBe(2);
  expect(worker.stderr + worker.stdout).toContain('tessera worker needs DB_URL');
});
