/**
 * Tessera and Directus side by side in one run (`npm run bench:directus -- --directus <dir>`): starts this
 * tree's Tessera and a Directus installed in <dir> (an npm project with the `directus` package; not part of
 * this repository), each on its own fresh PostgreSQL database, gives both the same schema and the same
 * seeded content through their APIs, and runs the scenarios that have a Directus figure INTERLEAVED
 * (Tessera, Directus, Tessera, … for every round), so whatever else the machine does hits both alike.
 * Prints each run's req/s, the medians, the ratio, and CPU per request of each server and of PostgreSQL.
 * docs/performance.md, "Directus side by side".
 *
 *   --directus <dir>      where `npm install directus@<version> pg` was run (required)
 *   --scenarios a,b       default: every uncached scenario of bench/scenarios.ts with a Directus figure
 *   --rounds 3            runs of each scenario on each server
 *   --duration 10         measured seconds per run (--warmup 2 unmeasured seconds before each)
 *   --connections 10      autocannon connections
 *   --articles 10000      articles to seed (--authors 1000)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { signIn, type Api } from './api.ts';
import { snapshot, usageBetween } from './cpu.ts';
import { preflight, runLoad, type Scenario } from './load.ts';
import { benchPostgresPids } from './postgres-pids.ts';
import { scenarios } from './scenarios.ts';
import { fixed, LOAD_OPTIONS, markdownTable, median, medianOf, wholeNumber } from './side-by-side.ts';
import { seedContent, seedStandardContent } from './seed.ts';
import { createBenchDatabase, startServer, type BenchDatabase } from './server.ts';

const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' } as const;
const log = (line = '') => process.stdout.write(`${line}\n`);

const { values: args } = parseArgs({
  options: {
    directus: { type: 'string' },
    scenarios: { type: 'string' },
    ...LOAD_OPTIONS,
  },
});

const count = (name: keyof typeof args, minimum: number) => wholeNumber(args, name, minimum);


type Side = 'tessera' | 'directus';

interface Contender {
  side: Side;
  base: string;
  pid: number;
  database: BenchDatabase;
  /** Signs in again before each run: Directus's access tokens last 15 minutes unless told otherwise. */
  admin: () => Promise<Api>;
  scenarios: Scenario[];
  stop(): Promise<void>;
}

interface Run {
  rps: number;
  serverMs: number | null;
  postgresMs: number | null;
  failed: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs the Directus CLI of the install in `dir` on this process's Node (Directus 12 needs Node >= 22). */
function directusCli(dir: string, command: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const cli = path.join(dir, 'node_modules', 'directus', 'cli.js');
  if (!existsSync(cli)) throw new Error(`No Directus at ${dir}: run "npm install directus pg" there first (${cli} is missing).`);
  return spawn(process.execPath, [cli, ...command], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function finished(child: ChildProcess, output: string[]): Promise<void> {
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`Directus exited with ${code}:\n${output.join('').slice(-4000)}`)))));
}

async function startDirectus(dir: string, database: BenchDatabase): Promise<{ base: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DB_CLIENT: 'pg',
    DB_CONNECTION_STRING: database.url,
    SECRET: `bench-directus-${process.pid}-0123456789abcdefghijklmnop`,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // As Tessera runs in the bench: warnings only, tokens that outlive a run, the seed's batches fit.
    LOG_LEVEL: 'warn',
    ACCESS_TOKEN_TTL: '4h',
    MAX_PAYLOAD_SIZE: '10mb',
    TELEMETRY: 'false',
  };
  const output: string[] = [];
  await finished(directusCli(dir, ['bootstrap'], env), output);
  const child = directusCli(dir, ['start'], env);
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Directus exited at start:\n${lines.join('').slice(-4000)}`);
    try {
      if ((await fetch(`${base}/server/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Directus did not answer /server/ping within 120 s:\n${lines.join('').slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    base,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * bench/seed.ts's content schema as Directus needs it said: a collection is a table only with `schema: {}`,
 * its key is an explicit field, and the o2m alias `authors.articles` is a field of its own.
 */
async function createDirectusContentSchema(api: Api): Promise<void> {
  const id = { field: 'id', type: 'integer', meta: { hidden: true }, schema: { is_primary_key: true, has_auto_increment: true } };
  await api.call('POST', '/collections', {
    collection: 'authors',
    schema: {},
    meta: {},
    fields: [id, { field: 'name', type: 'string', schema: { is_nullable: false } }, { field: 'email', type: 'string', schema: {} }],
  });
  await api.call('POST', '/collections', {
    collection: 'articles',
    schema: {},
    meta: {},
    fields: [
      id,
      { field: 'title', type: 'string', meta: { required: true }, schema: {} },
      { field: 'body', type: 'text', schema: {} },
      { field: 'status', type: 'string', schema: { max_length: 20, default_value: 'draft' } },
      { field: 'views', type: 'integer', schema: { default_value: 0 } },
      { field: 'published_on', type: 'timestamp', schema: {} },
      { field: 'author', type: 'integer', schema: {} },
    ],
  });
  await api.call('POST', '/fields/authors', { field: 'articles', type: 'alias', meta: { special: ['o2m'] } });
  await api.call('POST', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors', meta: { one_field: 'articles' } });
}

async function vacuumAnalyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

async function measure(contender: Contender, name: string, settings: { connections: number; durationS: number; warmupS: number }): Promise<Run> {
  const scenario = contender.scenarios.find((candidate) => candidate.name === name)!;
  const admin = await contender.admin();
  await preflight(admin, scenario);
  if (settings.warmupS > 0) await runLoad(contender.base, admin.token, scenario, { connections: settings.connections, durationS: settings.warmupS });
  const pids = await benchPostgresPids(contender.database.url, contender.database.name);
  const before = snapshot(contender.pid, pids);
  const load = await runLoad(contender.base, admin.token, scenario, { connections: settings.connections, durationS: settings.durationS });
  const cpu = usageBetween(before, snapshot(contender.pid, pids), load.requests);
  return { rps: load.rps, serverMs: cpu.serverMs, postgresMs: cpu.postgresMs, failed: load.non2xx + load.errors + load.timeouts };
}

function printTable(names: string[], runs: Map<string, Record<Side, Run[]>>): void {
  const header = ['scenario', 'Tessera req/s (runs)', 'Directus req/s (runs)', 'Tessera median', 'Directus median', 'Tessera/Directus', 'server ms/req T · D', 'postgres ms/req T · D'];
  const rows = names.map((name) => {
    const { tessera, directus } = runs.get(name)!;
    const t = median(tessera.map((run) => run.rps));
    const d = median(directus.map((run) => run.rps));
    return [
      name,
      tessera.map((run) => run.rps.toFixed(0)).join(' · '),
      directus.map((run) => run.rps.toFixed(0)).join(' · '),
      t.toFixed(0),
      d.toFixed(0),
      `${(t / d).toFixed(1)}×`,
      `${fixed(medianOf(tessera, (run) => run.serverMs), 2)} · ${fixed(medianOf(directus, (run) => run.serverMs), 2)}`,
      `${fixed(medianOf(tessera, (run) => run.postgresMs), 2)} · ${fixed(medianOf(directus, (run) => run.postgresMs), 2)}`,
    ];
  });
  for (const line of markdownTable(header, rows)) log(line);
}

async function main(): Promise<number> {
  if (!args.directus) throw new Error('Usage: npm run bench:directus -- --directus <dir with directus installed> [--scenarios read_one,create] [--rounds 3]');
  const dir = path.resolve(args.directus);
  const version = (JSON.parse(readFileSync(path.join(dir, 'node_modules', 'directus', 'package.json'), 'utf8')) as { version: string }).version;
  const settings = { connections: count('connections', 1), durationS: count('duration', 1), warmupS: count('warmup', 0) };
  const rounds = count('rounds', 1);
  const counts = { authors: count('authors', 1), articles: count('articles', 1), batchSize: 500 };
  const comparable = scenarios([1], [1], ADMIN).filter((scenario) => scenario.directus !== null && !scenario.cached && !scenario.before && scenario.name !== 'login');
  const names = args.scenarios ? args.scenarios.split(',').map((name) => name.trim()).filter(Boolean) : comparable.map((scenario) => scenario.name);
  for (const name of names) {
    if (!comparable.some((scenario) => scenario.name === name)) throw new Error(`"${name}" cannot run on both; comparable: ${comparable.map((scenario) => scenario.name).join(', ')}.`);
  }

  const scratch = mkdtempSync(path.join(os.tmpdir(), 'tessera-directus-'));
  const contenders: Contender[] = [];
  const databases: BenchDatabase[] = [];
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const contender of contenders) await contender.stop().catch((error: unknown) => log(`could not stop ${contender.side}: ${String(error)}`));
      for (const database of databases) await database.drop().catch((error: unknown) => log(`could not drop ${database.name}: ${String(error)}`));
      rmSync(scratch, { recursive: true, force: true });
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    log(`bench:directus: Tessera (this tree) against Directus ${version} (${dir})`);
    log(`${rounds} rounds of ${names.join(', ')}; ${settings.connections} connections, ${settings.durationS} s per run (+${settings.warmupS} s warm-up), interleaved`);

    const tesseraDb = await createBenchDatabase('_tessera');
    databases.push(tesseraDb);
    const server = await startServer({ databaseUrl: tesseraDb.url, secret: `bench-secret-${process.pid}-tessera-0123456789abcdefghijklmnop`, adminEmail: ADMIN.email, adminPassword: ADMIN.password, env: { DATA_DIR: mkdtempSync(path.join(scratch, 'data-')) } });
    const tesseraAdmin = await signIn(server.base, ADMIN.email, ADMIN.password);
    const tessera: Contender = { side: 'tessera', base: server.base, pid: server.child.pid!, database: tesseraDb, admin: async () => tesseraAdmin, scenarios: [], stop: () => server.stop() };
    contenders.push(tessera);
    log(`\nTessera (pid ${tessera.pid}) on ${tessera.base}, database ${tesseraDb.name}; seeding through the API:`);
    const seededTessera = await seedStandardContent(tesseraAdmin, tesseraDb.url, counts, (line) => log(line));
    tessera.scenarios = scenarios(seededTessera.articleIds, seededTessera.authorIds, ADMIN);

    const directusDb = await createBenchDatabase('_directus');
    databases.push(directusDb);
    const started = await startDirectus(dir, directusDb);
    const directus: Contender = { side: 'directus', base: started.base, pid: started.child.pid!, database: directusDb, admin: () => signIn(started.base, ADMIN.email, ADMIN.password), scenarios: [], stop: () => started.stop() };
    contenders.push(directus);
    log(`\nDirectus ${version} (pid ${directus.pid}) on ${directus.base}, database ${directusDb.name}; seeding through the API:`);
    const directusAdmin = await directus.admin();
    await createDirectusContentSchema(directusAdmin);
    const seededDirectus = await seedContent(directusAdmin, counts, (line) => log(line));
    log(`  ${seededDirectus.articleIds.length} articles in ${(seededDirectus.articlesMs / 1000).toFixed(1)} s (${(seededDirectus.articleIds.length / (seededDirectus.articlesMs / 1000)).toFixed(0)} items/s)`);
    await vacuumAnalyze(directusDb.url);
    log('  vacuum analyze');
    directus.scenarios = scenarios(seededDirectus.articleIds, seededDirectus.authorIds, ADMIN);

    const runs = new Map<string, Record<Side, Run[]>>(names.map((name) => [name, { tessera: [], directus: [] }]));
    let failed = 0;
    log('\nLoad (autocannon), interleaved:');
    for (const name of names) {
      for (let round = 1; round <= rounds; round++) {
        for (const contender of contenders) {
          const run = await measure(contender, name, settings);
          runs.get(name)![contender.side].push(run);
          failed += run.failed;
          log(`  ${name.padEnd(12)} round ${round} ${contender.side.padEnd(8)}: ${run.rps.toFixed(0).padStart(6)} req/s, server ${fixed(run.serverMs, 2)} ms/req, postgres ${fixed(run.postgresMs, 2)} ms/req${run.failed ? `, ${run.failed} FAILED requests` : ''}`);
        }
      }
    }
    log(`\nTessera against Directus ${version}, ${rounds} interleaved rounds, ${settings.durationS} s each, ${settings.connections} connections:\n`);
    printTable(names, runs);
    if (failed > 0) {
      log(`\nFAILED: ${failed} requests answered non-2xx, errored or timed out.`);
      return 1;
    }
    return 0;
  } finally {
    await cleanup();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  log(`\nbench:directus failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
