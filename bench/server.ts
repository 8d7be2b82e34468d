import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The PostgreSQL server the benchmark creates its database on (BENCH_PG_URL, default the local one). */
export const PG_SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** PG_SERVER_URL pointed at another database on the same server. */
export function databaseUrl(name: string): string {
  const url = new URL(PG_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the server's maintenance database. */
export async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database of this run's own; drop() removes it (safe to call twice). */
export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** `suffix` tells apart several databases of one run (bench:compare gives each server its own). */
export async function createBenchDatabase(suffix = ''): Promise<BenchDatabase> {
  const name = `tessera_bench_${process.pid}${suffix}`;
  await adminQuery(`drop database if exists "${name}" with (force)`);
  await adminQuery(`create database "${name}"`);
  let dropped = false;
  return {
    name,
    url: databaseUrl(name),
    async drop() {
      if (dropped) return;
      dropped = true;
      await adminQuery(`drop database if exists "${name}" with (force)`);
    },
  };
}

/** Tessera running in a child process (its own event loop), and how to stop it. */
export interface ServerProcess {
  base: string;
  port: number;
  child: ChildProcess;
  /** The last lines the server wrote (warnings, errors), for failure reports. */
  output(): string;
  /** What the server printed up to and including its welcome banner. */
  startupOutput(): string;
  /** The inspector's WebSocket URL when the server runs with --inspect. */
  inspectorUrl: string | null;
  stop(): Promise<void>;
}

export interface StartOptions {
  databaseUrl: string;
  secret: string;
  adminEmail: string;
  adminPassword: string;
  /** Extra flags for the server's node (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Extra environment (e.g. DB_POOL_MAX). */
  env?: Record<string, string>;
  /** Extra arguments of `tessera start` (e.g. --workers 2). */
  args?: string[];
  startTimeoutMs?: number;
  /** The source tree whose bin/tessera runs (default this one; bench:compare starts another commit's). */
  root?: string;
}

/**
 * Runs `node bin/tessera start` (which migrates, bootstraps the administrator and listens) on an ephemeral
 * port on 127.0.0.1, and resolves once it prints its `Admin:  http://localhost:PORT/admin` line.
 */
/**
 * How long a start may take: a fresh checkout (bench:compare's base) builds the admin first, which takes
 * minutes on a loaded 2-core machine. BENCH_START_TIMEOUT (ms) overrides.
 */
const DEFAULT_START_TIMEOUT_MS = Number(process.env.BENCH_START_TIMEOUT ?? 300_000);

export function startServer(options: StartOptions): Promise<ServerProcess> {
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    DB_URL: options.databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    SECRET: options.secret,
    ADMIN_EMAIL: options.adminEmail,
    ADMIN_PASSWORD: options.adminPassword,
    LOG_LEVEL: 'warn',
    LOG_STYLE: 'raw',
    // A full run (seeding + every scenario) can outlive the default 15-minute access token.
    ACCESS_TOKEN_TTL: '4h',
    // Index advice lists every sorted read (timings are recorded either way; this only sets what is listed),
    // so list_100_indexed finds the advised index whatever a single read took on this machine.
    INDEX_ADVICE_THRESHOLD: '0',
    ...options.env,
  };
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'bin/tessera', 'start', ...(options.args ?? [])], { cwd: options.root ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let inspectorUrl: string | null = null;
  const startup: string[] = [];
  const remember = (chunk: Buffer) => {
    inspectorUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(chunk.toString('utf8'))?.[1] ?? null;
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Tessera did not start within ${startTimeoutMs} ms:\n${lines.join('\n')}`));
    }, startTimeoutMs);
    child.stderr!.on('data', remember);
    let ready = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      remember(chunk);
      if (ready) return;
      buffered += chunk.toString('utf8');
      const match = /Admin:\s+http:\/\/localhost:(\d+)\/admin/.exec(buffered);
      if (!match) return;
      ready = true;
      buffered = '';
      startup.push(...lines.splice(0)); // output() keeps what comes after the welcome banner: warnings and errors
      clearTimeout(timer);
      const port = Number(match[1]);
      resolve({
        base: `http://127.0.0.1:${port}`,
        port,
        child,
        output: () => lines.filter((line) => !/Debugger|inspector|nodejs\.org\/en\/docs\/inspector/i.test(line)).join('\n'),
        inspectorUrl,
        startupOutput: () => startup.join('\n'),
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(force);
        },
      });
    });
    child.once('exit', (code, signal) => {
      if (ready) return;
      clearTimeout(timer);
      reject(new Error(`Tessera exited before it was ready (code ${code}, signal ${signal}):\n${lines.join('\n')}`));
    });
  });
}
