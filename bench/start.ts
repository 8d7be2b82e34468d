/**
 * Cold start and idle memory of `tessera start` on PostgreSQL (`npm run bench:start`): migrates a fresh
 * database once, then starts the server BENCH_START_RUNS times against it (nothing pending, the admin
 * present) and reports per run, and the median:
 *   - firstPingMs: from spawning `node bin/tessera start` to the first 200 on /server/ping (polled every 5 ms);
 *   - the server's own phases (`--timings`: wall and CPU ms, RSS per phase) from its "server started" line;
 *   - idleMb: resident memory (VmRSS) BENCH_IDLE_SECONDS after the first ping, with no request since;
 *   - then what the lazily loaded routers cost their first caller: sign-in (loads /auth), then GET /users?limit=1
 *     twice (the first loads the item routes and their services) in ms, and the resident memory after them.
 * The first run also fills Node's compile cache (bin/tessera turns it on); the median is of the runs after it.
 * Linux only (reads /proc). Figures: docs/performance.md, "Start and memory".
 *
 * Environment:
 *   BENCH_START_RUNS=5       starts measured (plus one that fills the compile cache)
 *   BENCH_IDLE_SECONDS=10    wait before the idle figure
 *   BENCH_NODE_FLAGS="…"     extra Node flags for the server
 *   BENCH_START_BIN=…/bin/tessera   another tree's launcher (e.g. an unpacked `git archive` of an older commit
 *                            sharing this node_modules), to measure before and after on the same machine
 *   BENCH_PG_URL             PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBenchDatabase } from './server.ts';

const BIN = process.env.BENCH_START_BIN ?? fileURLToPath(new URL('../bin/tessera', import.meta.url));
const runs = Number(process.env.BENCH_START_RUNS ?? 5);
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

interface Run {
  firstPingMs: number;
  idleMb: number;
  /** The server's own figure: ms from its process start to listening (before its self-ping). */
  serverStartMs: number;
  cpuMs: number;
  /** POST /auth/login, the first request to its router. */
  loginMs: number;
  /** GET /users?limit=1: the first (router loaded on it) and the second. */
  firstReadMs: number;
  secondReadMs: number;
  /** VmRSS after those three requests. */
  afterReadsMb: number;
  phases: Record<string, { ms: number; cpuMs: number; rssMb: number }>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function rssMb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

/** Parses the `--timings` table: "  name   123 ms   cpu    45 ms   rss  110 MB". */
function parseTimings(output: string): Run['phases'] {
  const phases: Run['phases'] = {};
  for (const match of output.matchAll(/^ {2}(\S.*?)\s+(\d+) ms\s+cpu\s+(\d+) ms(?:\s+rss\s+(\d+) MB)?/gm)) {
    phases[match[1]!] = { ms: Number(match[2]), cpuMs: Number(match[3]), rssMb: Number(match[4] ?? 0) };
  }
  return phases;
}

async function startOnce(databaseUrl: string, dataDir: string): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, BIN, 'start', '--timings'], {
    cwd: dataDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DB_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SECRET: 'bench-start-secret-0123456789abcdefghijklmnop', ADMIN_PASSWORD: 'bench-password-1', LOG_LEVEL: 'info', LOG_STYLE: 'raw' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let firstPingMs = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/server/ping`).then((response) => response.status === 200, () => false);
      if (ok) {
        firstPingMs = performance.now() - started;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    while (!output.includes('(since the process started)')) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idleMb = rssMb(child.pid!);
    const base = `http://127.0.0.1:${port}`;
    const timed = async (request: () => Promise<Response>) => {
      const begun = performance.now();
      const response = await request();
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${response.status}: ${body}`);
      return { ms: Math.round(performance.now() - begun), body };
    };
    const login = await timed(() => fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'bench-password-1' }) }));
    const headers = { authorization: `Bearer ${(JSON.parse(login.body) as { data: { access_token: string } }).data.access_token}` };
    const firstRead = await timed(() => fetch(`${base}/users?limit=1`, { headers }));
    const secondRead = await timed(() => fetch(`${base}/users?limit=1`, { headers }));
    const afterReadsMb = rssMb(child.pid!);
    const line = output.split('\n').find((text) => text.includes('"server started"'));
    const phases = parseTimings(output);
    return { firstPingMs: Math.round(firstPingMs), idleMb, loginMs: login.ms, firstReadMs: firstRead.ms, secondReadMs: secondRead.ms, afterReadsMb, serverStartMs: line ? (JSON.parse(line) as { startMs: number }).startMs : 0, cpuMs: phases.total?.cpuMs ?? 0, phases };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => values.slice().sort((a, b) => a - b)[values.length >> 1]!;

const database = await createBenchDatabase();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-start-'));
try {
  process.stdout.write(`Start bench: ${runs} starts on PostgreSQL (migrated, nothing pending), idle after ${idleSeconds} s; ${os.availableParallelism()} cores, load average ${os.loadavg()[0]!.toFixed(1)}\n`);
  const warm = await startOnce(database.url, dataDir); // migrates the empty database, seeds the admin, fills the compile cache
  process.stdout.write(`first start (migrations + compile cache): first ping ${warm.firstPingMs} ms, idle ${warm.idleMb} MB\n`);
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await startOnce(database.url, dataDir);
    results.push(run);
    const phases = Object.entries(run.phases).filter(([name]) => name !== 'total').map(([name, phase]) => `${name} ${phase.ms}/${phase.cpuMs}`).join(', ');
    process.stdout.write(`run ${i + 1}: first ping ${run.firstPingMs} ms (CPU ${run.cpuMs} ms), idle ${run.idleMb} MB; phases ms wall/cpu: ${phases}\n`);
    process.stdout.write(`       then sign-in ${run.loginMs} ms, first GET /users ${run.firstReadMs} ms, second ${run.secondReadMs} ms, RSS after them ${run.afterReadsMb} MB\n`);
  }
  process.stdout.write(`median: first ping ${median(results.map((run) => run.firstPingMs))} ms, CPU to first ping ${median(results.map((run) => run.cpuMs))} ms, idle RSS ${median(results.map((run) => run.idleMb))} MB; sign-in ${median(results.map((run) => run.loginMs))} ms, first GET /users ${median(results.map((run) => run.firstReadMs))} ms, second ${median(results.map((run) => run.secondReadMs))} ms, RSS after them ${median(results.map((run) => run.afterReadsMb))} MB\n`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
}
