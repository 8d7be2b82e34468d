/**
 * Memory of `tessera start` (`npx node bench/memory.ts`): resident memory (RSS) after each start phase,
 * the peak during start (the server process, and the server plus its child processes, sampled every
 * 50 ms), idle after 10 s, and after some use (admin page, 20 sign-ins, 100 reads; their median time). Runs three starts:
 * the embedded database created from nothing, the same database reopened, and PostgreSQL (DB_URL).
 * Linux only (reads /proc). Figures: docs/operations.md, "Memory on the embedded database".
 *
 * Environment:
 *   BENCH_NODE_FLAGS="…"   extra Node flags for the server (e.g. --no-liftoff-only: V8's default WebAssembly tiers)
 *   BENCH_PG_URL           PostgreSQL server for the third run (default postgres://postgres@127.0.0.1:5432/postgres; "none" skips it)
 *   BENCH_IDLE_SECONDS=10  wait before the idle figure
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const BIN = fileURLToPath(new URL('../bin/tessera', import.meta.url));
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'bench-password-1';

const MB = 1024;
/** VmRSS of one process in kB (0 once it is gone). */
function rssKb(pid: number): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The process and all its descendants. */
function tree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const pids = [root];
  for (let i = 0; i < pids.length; i++) for (const [pid, parent] of parents) if (parent === pids[i]) pids.push(pid);
  return pids;
}

interface Run {
  name: string;
  phasesMb: Record<string, number>;
  startPeakMb: number;
  startPeakWithChildrenMb: number;
  startSeconds: number;
  idleMb: number;
  afterUseMb: number;
  usePeakMb: number;
  /** Milliseconds per request, median of the reads in the "use" loop. */
  readMs: number;
}

async function measure(name: string, cwd: string, env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, BIN, 'start'], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', LOG_STYLE: 'raw', LOG_LEVEL: 'info', ADMIN_PASSWORD: PASSWORD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let peak = 0;
  let peakWithChildren = 0;
  const sampler = setInterval(() => {
    const own = rssKb(child.pid!);
    peak = Math.max(peak, own);
    peakWithChildren = Math.max(peakWithChildren, tree(child.pid!).reduce((sum, pid) => sum + rssKb(pid), 0));
  }, 50);
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = output.split('\n').find((text) => text.includes('"server started"'));
        if (found) resolve(found);
      };
      child.stdout!.on('data', check);
      child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    });
    const startSeconds = (Date.now() - started) / 1000;
    const log = JSON.parse(line) as { port: number; rssMb: Record<string, number> };
    // maxRSS reported by the server itself catches spikes between two samples.
    const startPeakMb = Math.max(Math.round(peak / MB), log.rssMb.peak ?? 0);
    const startPeakWithChildrenMb = Math.round(peakWithChildren / MB);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idleMb = Math.round(rssKb(child.pid!) / MB);
    peak = 0;
    const url = `http://127.0.0.1:${log.port}`;
    const timings: number[] = [];
    for (let i = 0; i < 20; i++) {
      await (await fetch(`${url}/admin/`)).arrayBuffer();
      const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }) });
      const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
      for (const read of ['/users', '/collections', '/fields', '/activity?limit=50', '/settings']) {
        const sent = performance.now();
        await (await fetch(url + read, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
        timings.push(performance.now() - sent);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const { rssMb: phasesMb } = log;
    return { name, phasesMb, startPeakMb, startPeakWithChildrenMb, startSeconds, idleMb, afterUseMb: Math.round(rssKb(child.pid!) / MB), usePeakMb: Math.round(peak / MB), readMs: timings.sort((a, b) => a - b)[timings.length >> 1]! };
  } finally {
    clearInterval(sampler);
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const runs: Run[] = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-memory-'));
try {
  runs.push(await measure('embedded, first start', dataDir, {}));
  runs.push(await measure('embedded, reopen', dataDir, {}));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
if (pgUrl !== 'none') {
  const name = `tessera_memory_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'tessera-memory-'));
  try {
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    runs.push(await measure('PostgreSQL (DB_URL)', cwd, { DB_URL: url.toString() }));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

console.log(`Node flags: ${nodeFlags.join(' ') || '(none: bin/tessera adds --liftoff-only)'}; idle after ${idleSeconds} s\n`);
console.log('| run | after imports | DB open | migrated | listening | start peak (server) | start peak (with children) | start s | idle | after use | peak in use | read ms (median) |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const run of runs) {
  const p = run.phasesMb;
  console.log(
    `| ${run.name} | ${p.loaded} | ${p.databaseOpened} | ${p.migrated} | ${p.listening} | ${run.startPeakMb} | ${run.startPeakWithChildrenMb} | ${run.startSeconds.toFixed(1)} | ${run.idleMb} | ${run.afterUseMb} | ${run.usePeakMb} | ${run.readMs.toFixed(1)} |`,
  );
}
console.log('\nMB of resident memory (VmRSS).');
