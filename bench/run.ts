/**
 * Tessera HTTP benchmark (`npm run bench`).
 *
 * Creates a fresh PostgreSQL database, starts `tessera start` in a child process on 127.0.0.1, seeds
 * 1,000 authors and 10,000 articles THROUGH THE API (activity and revisions on), runs autocannon for each
 * scenario, then times an m2m read of 5,000 parents x 20 children (seeded with SQL, read through the API).
 * Prints a table, writes bench/results/latest.json (partial.json for BENCH_SCENARIOS, BENCH_PROFILE
 * and smaller data sets), and drops the database (also on failure).
 *
 * Environment:
 *   BENCH_DURATION=10       seconds measured per scenario
 *   BENCH_WARMUP=2          seconds of unmeasured warm-up per scenario (0: none)
 *   BENCH_CONNECTIONS=10    autocannon connections
 *   BENCH_SCENARIOS=a,b     run only these scenarios (names as in the table; `m2m` for the m2m read)
 *   BENCH_ARTICLES=10000    articles to seed (BENCH_AUTHORS=1000)
 *   BENCH_M2M_RUNS=5        timed m2m reads (the median is reported)
 *   BENCH_PG_URL            PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_PROFILE=1         profile the server (node --inspect, V8 sampling profiler) during each measured
 *                           window; writes bench/results/profiles/<scenario>.cpuprofile and prints a summary
 *   BENCH_SERVER_ENV=K=V,…  extra environment for the server (e.g. DB_POOL_MAX=20)
 *   BENCH_WORKERS=N         `tessera start --workers N` (N > 1 needs REDIS_URL, e.g. BENCH_SERVER_ENV=REDIS_URL=redis://127.0.0.1:6379)
 *   BENCH_KEEP_DB=1         keep the database afterwards (its name is printed) for psql / EXPLAIN
 *   BENCH_PG_ALONE=0        skip the "PostgreSQL alone" pgbench run after each read scenario (bench/postgres-alone.ts)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { signIn, type Api } from './api.ts';
import { snapshot, usageBetween, type CpuUsage } from './cpu.ts';
import { assetScenarios, uploadBenchImage } from './assets.ts';
import { createBenchDashboard, insightsScenarios } from './insights.ts';
import { preflight, runLoad, type LoadResult, type Scenario } from './load.ts';
import { connectInspector, formatSummary, summarize, type Inspector } from './profile.ts';
import { scenarios } from './scenarios.ts';
import { hasPgbench, measurePostgresAlone, plainStatements } from './postgres-alone.ts';
import { benchPostgresPids } from './postgres-pids.ts';
import { createManyToManySchema, restrictedReader, seedManyToManySql, seedStandardContent } from './seed.ts';
import { createBenchDatabase, startServer, type BenchDatabase, type ServerProcess } from './server.ts';

const int = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}".`);
  return value;
};

const SETTINGS = {
  durationS: int('BENCH_DURATION', 10),
  warmupS: int('BENCH_WARMUP', 2),
  connections: int('BENCH_CONNECTIONS', 10),
  authors: int('BENCH_AUTHORS', 1000),
  articles: int('BENCH_ARTICLES', 10_000),
  batchSize: 500,
  m2m: { parents: 5000, perParent: 20, children: 10_000, runs: int('BENCH_M2M_RUNS', 5) },
  only: process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : null,
  keepDb: process.env.BENCH_KEEP_DB === '1',
  postgresAlone: process.env.BENCH_PG_ALONE !== '0',
  profile: process.env.BENCH_PROFILE === '1',
  workers: process.env.BENCH_WORKERS ? int('BENCH_WORKERS', 1) : null,
  serverEnv: Object.fromEntries(
    (process.env.BENCH_SERVER_ENV ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
  ),
};

/** The issue's targets: ≥5x Directus on reads, ≥3x on writes; m2m read under 500 ms. */
const TARGET = { read: 5, write: 3, m2mMs: 500 } as const;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' } as const;

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const PROFILES = fileURLToPath(new URL('./results/profiles/', import.meta.url));

const log = (line = '') => process.stdout.write(`${line}\n`);

interface M2mResult {
  parents: number;
  childrenPerParent: number;
  seedMs: number;
  runsMs: number[];
  medianMs: number;
  bytes: number;
}

async function runManyToMany(api: Api, databaseUrl: string): Promise<M2mResult> {
  const { parents, perParent, children, runs } = SETTINGS.m2m;
  await createManyToManySchema(api);
  log(`  seeding ${parents} parents x ${perParent} m2m children with SQL (insert … select generate_series), NOT through the API`);
  const seedMs = await seedManyToManySql(databaseUrl, { parents, perParent, children });
  const url = `${api.base}/items/parents?fields=*,children.*&limit=-1`;
  const runsMs: number[] = [];
  let bytes = 0;
  let planned = runs;
  for (let run = 0; run <= planned; run++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { Authorization: `Bearer ${api.token}` } });
    const text = await response.text();
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`m2m read answered ${response.status}: ${text.slice(0, 2000)}`);
    const { data } = JSON.parse(text) as { data: Array<{ children: unknown[] }> };
    if (data.length !== parents || data.some((parent) => parent.children.length !== perParent)) {
      throw new Error(`m2m read returned ${data.length} parents (expected ${parents}) or a parent without ${perParent} children.`);
    }
    bytes = text.length;
    // Run 0 is a warm-up (first use of this collection's schema and plans).
    if (run > 0) runsMs.push(ms);
    log(`  ${run === 0 ? 'warm-up' : `run ${run}`}: ${ms.toFixed(0)} ms, ${(text.length / 1e6).toFixed(1)} MB`);
    if (run === 0 && ms > 5000 && planned > 1) {
      planned = 1;
      log('  (over 5 s: timing one more run only)');
    }
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  return { parents, childrenPerParent: perParent, seedMs, runsMs, medianMs: sorted[Math.floor(sorted.length / 2)]!, bytes };
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('show server_version')).rows[0]!.server_version;
  } finally {
    await client.end();
  }
}

/** The commit measured, and whether the working tree had changes (read-only git commands). */
function gitState(): { commit: string | null; dirty: string[] | null } {
  const git = (args: string[]) => execFileSync('git', args, { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git(['status', '--porcelain', '--untracked-files=no']).split('\n').filter(Boolean).map((line) => line.slice(3));
    return { commit: git(['rev-parse', '--short', 'HEAD']), dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}

const fmt = (value: number | null) => (value === null ? '?' : value.toFixed(2));
const pad = (value: string, width: number, right = false) => (right ? value.padStart(width) : value.padEnd(width));

function printTable(results: Array<LoadResult & { postgresAlone: number | null }>, all: Scenario[], m2m: M2mResult | null): void {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'PG alone/s', '% of PG', 'Directus req/s', 'ratio', 'target'];
  const rows = results.map((result) => {
    const scenario = all.find((s) => s.name === result.scenario)!;
    const ratio = scenario.directus ? result.rps / scenario.directus : null;
    const target = TARGET[scenario.kind];
    return [
      result.scenario,
      result.rps.toFixed(0),
      result.p50.toFixed(1),
      result.p99.toFixed(1),
      result.postgresAlone === null ? '-' : result.postgresAlone.toFixed(0),
      result.postgresAlone === null ? '-' : `${Math.round((result.rps / result.postgresAlone) * 100)}%`,
      scenario.directus?.toString() ?? '-',
      ratio === null ? '-' : `${ratio.toFixed(2)}x`,
      result.non2xx + result.errors + result.timeouts > 0 ? 'FAILED (non-2xx)' : ratio === null ? '-' : `${target}x ${ratio >= target ? 'met' : 'MISSED'}`,
    ];
  });
  if (m2m) rows.push(['m2m (5,000x20, one read)', '-', `${m2m.medianMs.toFixed(0)} (median)`, '-', '-', '-', '-', '-', `<${TARGET.m2mMs} ms ${m2m.medianMs < TARGET.m2mMs ? 'met' : 'MISSED'}`]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => pad(cell, widths[i]!, i > 0 && i < 8)).join('  ');
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) log(line(row));
}

async function main(): Promise<number> {
  let database: BenchDatabase | null = null;
  let server: ServerProcess | null = null;
  let cachedServer: ServerProcess | null = null;
  let inspector: Inspector | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      inspector?.close();
      await server?.stop().catch((error: unknown) => log(`could not stop the server: ${String(error)}`));
      await cachedServer?.stop().catch((error: unknown) => log(`could not stop the cached server: ${String(error)}`));
      if (database && !SETTINGS.keepDb) await database.drop().catch((error: unknown) => log(`could not drop ${database?.name}: ${String(error)}`));
      if (database && SETTINGS.keepDb) log(`kept database ${database.name} (${database.url}); drop it with: psql -h 127.0.0.1 -U postgres -c 'drop database "${database.name}"'`);
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    database = await createBenchDatabase();
    const pgVersion = await postgresVersion(database.url);
    const cpus = os.cpus();
    const machine = { cpus: cpus.length, cpuModel: cpus[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, postgres: pgVersion, platform: `${os.platform()} ${os.release()}` };
    const git = gitState();
    log(`Tessera benchmark: ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, PostgreSQL ${pgVersion}`);
    log(`commit ${git.commit ?? '?'}${git.dirty?.length ? ` with uncommitted changes to ${git.dirty.join(', ')}` : ''}`);
    log(`database ${database.name}; ${SETTINGS.connections} connections, ${SETTINGS.durationS} s per scenario (+${SETTINGS.warmupS} s warm-up); load generator shares the cores with the server and PostgreSQL`);

    const nodeArgs = SETTINGS.profile ? ['--inspect=127.0.0.1:0'] : [];
    // Uploads and cached transformations go to a throw-away folder, not the working tree's ./data.
    const serverEnv: Record<string, string> = { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-')), ...SETTINGS.serverEnv };
    server = await startServer({ databaseUrl: database.url, secret: `bench-secret-${process.pid}-0123456789abcdefghijklmnop`, adminEmail: ADMIN.email, adminPassword: ADMIN.password, nodeArgs, env: serverEnv, args: SETTINGS.workers === null ? [] : ['--workers', String(SETTINGS.workers)] });
    log(`Tessera (pid ${server.child.pid}) listening on ${server.base}`);
    if (SETTINGS.profile) {
      if (!server.inspectorUrl) throw new Error('BENCH_PROFILE=1 but the server printed no inspector URL.');
      inspector = await connectInspector(server.inspectorUrl);
      mkdirSync(PROFILES, { recursive: true });
      log(`profiling the server through ${server.inspectorUrl} (the inspector costs some throughput: compare rates without it)`);
    }
    const api = await signIn(server.base, ADMIN.email, ADMIN.password);

    log('\nSchema and seed, through the API (POST arrays of 500; activity and revisions on):');
    const seeded = await seedStandardContent(api, database.url, { authors: SETTINGS.authors, articles: SETTINGS.articles, batchSize: SETTINGS.batchSize }, log);
    const seedRate = seeded.articleIds.length / (seeded.articlesMs / 1000);

    const assetFile = await uploadBenchImage(api);
    const dashboard = await createBenchDashboard(api);
    const all = [...scenarios(seeded.articleIds, seeded.authorIds, ADMIN), ...assetScenarios(assetFile), ...insightsScenarios(dashboard)];
    const reader = await restrictedReader(api);
    const apiFor = (scenario: Scenario): Api => (scenario.as === 'restricted' ? reader : api);
    const selected = all.filter((s) => !SETTINGS.only || SETTINGS.only.has(s.name));
    if (selected.some((scenario) => scenario.cached)) {
      // The cached scenarios' server: the same database and settings, response cache on (memory store).
      const env = { ...serverEnv, CACHE_ENABLED: 'true', ...SETTINGS.serverEnv };
      cachedServer = await startServer({ databaseUrl: database.url, secret: `bench-secret-${process.pid}-0123456789abcdefghijklmnop`, adminEmail: ADMIN.email, adminPassword: ADMIN.password, nodeArgs, env });
      log(`Tessera with CACHE_ENABLED=true (pid ${cachedServer.child.pid}) listening on ${cachedServer.base}, for the *_cached scenarios`);
    }
    const serverFor = (scenario: Scenario): ServerProcess => (scenario.cached ? cachedServer! : server!);
    const results: Array<LoadResult & { cpu: CpuUsage; postgresAlone: number | null }> = [];
    const plain = SETTINGS.postgresAlone && hasPgbench() ? plainStatements(seeded.articleIds) : {};
    if (SETTINGS.postgresAlone && Object.keys(plain).length === 0) log('(pgbench not found: no "PostgreSQL alone" column)');
    const failures: string[] = [];
    const interference: string[] = [];
    log('\nLoad (autocannon):');
    for (const scenario of selected) {
      if (scenario.before) log(`  ${scenario.name}: ${await scenario.before(api)}`);
      const target = serverFor(scenario);
      const caller = scenario.cached ? { ...apiFor(scenario), base: target.base } : apiFor(scenario);
      const bytes = await preflight(caller, scenario);
      if (SETTINGS.warmupS > 0) await runLoad(target.base, caller.token, scenario, { connections: SETTINGS.connections, durationS: SETTINGS.warmupS });
      if (scenario.cached) {
        // A cached scenario measures hits: make sure they are.
        const probe = await fetch(`${target.base}${scenario.path}`, { headers: { Authorization: `Bearer ${caller.token}` } });
        if (probe.headers.get('x-cache') !== 'HIT') throw new Error(`${scenario.name}: expected a cache hit after the warm-up, got x-cache ${probe.headers.get('x-cache')}`);
      }
      const pgPids = await benchPostgresPids(database.url, database.name);
      await inspector?.start();
      const before = snapshot(target.child.pid, pgPids);
      const load = await runLoad(target.base, caller.token, scenario, { connections: SETTINGS.connections, durationS: SETTINGS.durationS });
      const cpu = usageBetween(before, snapshot(target.child.pid, pgPids), load.requests);
      if (inspector) {
        const profile = await inspector.stop();
        writeFileSync(path.join(PROFILES, `${scenario.name}.cpuprofile`), JSON.stringify(profile));
        const summary = summarize(profile);
        writeFileSync(path.join(PROFILES, `${scenario.name}.summary.json`), `${JSON.stringify(summary, null, 2)}\n`);
        log(formatSummary(scenario.name, summary, load.requests));
      }
      const script = plain[scenario.name];
      const postgresAlone = script ? measurePostgresAlone(database.url, script, SETTINGS.connections, SETTINGS.durationS) : null;
      const result = { ...load, cpu, postgresAlone };
      results.push(result);
      const bad = result.non2xx + result.errors + result.timeouts;
      log(`  ${pad(scenario.name, 10)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  (${result.requests} ok, ~${(bytes / 1024).toFixed(1)} KB/response)`);
      await scenario.after?.(api);
      if (postgresAlone !== null) log(`             PostgreSQL alone (pgbench, the plain SQL, ${SETTINGS.connections} connections): ${postgresAlone.toFixed(0)}/s; Tessera reaches ${Math.round((result.rps / postgresAlone) * 100)}%`);
      log(`             CPU per request: tessera ${fmt(cpu.serverMs)} ms, postgres ${fmt(cpu.postgresMs)} ms, load generator ${fmt(cpu.loadgenMs)} ms, other ${fmt(cpu.otherMs)} ms (irq+softirq ${fmt(cpu.interruptMs)}); machine ${fmt(cpu.machineMs)} ms, ${cpu.busyPercent ?? '?'}% busy`);
      if (cpu.otherMs !== null && cpu.machineMs !== null && cpu.otherMs > 0.2 * cpu.machineMs) {
        const warning = `${scenario.name}: ${Math.round((cpu.otherMs / cpu.machineMs) * 100)}% of the machine's CPU went to other processes (another test suite or benchmark?): numbers disturbed`;
        interference.push(warning);
        log(`  !!! ${warning}`);
      }
      if (bad > 0) {
        const message = `${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts; status codes ${JSON.stringify(result.statusCodes)}`;
        failures.push(message);
        log(`  !!! ${message}`);
      }
    }

    let m2m: M2mResult | null = null;
    if (!SETTINGS.only || SETTINGS.only.has('m2m')) {
      log('\nm2m read (GET /items/parents?fields=*,children.*&limit=-1):');
      m2m = await runManyToMany(api, database.url);
    }

    log('\nResults:');
    printTable(results, all, m2m);
    const report = {
      date: new Date().toISOString(),
      git,
      machine,
      settings: { connections: SETTINGS.connections, durationS: SETTINGS.durationS, warmupS: SETTINGS.warmupS, authors: SETTINGS.authors, articles: SETTINGS.articles, serverEnv: SETTINGS.serverEnv, workers: SETTINGS.workers, profile: SETTINGS.profile },
      seed: { authorsMs: Math.round(seeded.authorsMs), articlesMs: Math.round(seeded.articlesMs), articlesPerSecond: Math.round(seedRate) },
      scenarios: results.map((result) => {
        const scenario = all.find((s) => s.name === result.scenario)!;
        return {
          ...result,
          kind: scenario.kind,
          request: scenario.example,
          directus: scenario.directus,
          postgresAloneRatio: result.postgresAlone ? Math.round((result.rps / result.postgresAlone) * 100) / 100 : null,
          ratio: scenario.directus ? Math.round((result.rps / scenario.directus) * 100) / 100 : null,
          target: scenario.directus ? TARGET[scenario.kind] : null,
        };
      }),
      m2m: m2m && { ...m2m, targetMs: TARGET.m2mMs, seededWith: 'SQL insert … select generate_series (not the API)' },
      failures,
      interference,
    };
    // Only a complete run of Tessera as shipped, on the standard data set, replaces latest.json.
    const standard = !SETTINGS.only && !SETTINGS.profile && SETTINGS.articles === 10_000 && SETTINGS.authors === 1000;
    const resultsFile = path.join(RESULTS_DIR, standard ? 'latest.json' : 'partial.json');
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    log(`\nWrote ${path.relative(process.cwd(), resultsFile)}`);
    const warnings = server.output();
    if (warnings) log(`\nServer output (LOG_LEVEL=warn):\n${warnings}`);
    if (interference.length > 0) log(`\nWARNING: other load on the machine during ${interference.length} scenario(s); rerun on a quiet machine.`);
    if (failures.length > 0) {
      log(`\nFAILED: ${failures.length} scenario(s) had non-2xx answers or errors:\n  ${failures.join('\n  ')}`);
      return 1;
    }
    return 0;
  } catch (error) {
    log(`\nBenchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (server) log(`\nServer output:\n${server.output()}`);
    return 1;
  } finally {
    await cleanup();
  }
}

process.exitCode = await main();
