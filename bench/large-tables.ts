/**
 * Large tables (issue 36 item 4, `npm run bench:large`): how each read's cost grows from 10,000 to 1,000,000
 * items, next to the same answer from PostgreSQL alone.
 *
 * Creates a fresh database, starts `tessera start` in a child process, creates authors, articles (m2o author,
 * `published_on` indexed) and parents ↔ children (m2m) THROUGH THE API, then for each size grows the tables
 * with SQL (bench/large-seed.ts), and times every scenario of bench/large-scenarios.ts one request at a time
 * (median of the runs after two warm-ups), and the scenario's SQL alone over one pg connection. Prints a
 * table per size and the growth table, writes bench/results/large-tables.json, drops the database.
 *
 * Environment:
 *   BENCH_LARGE_SIZES=10000,100000,1000000   sizes (articles), ascending
 *   BENCH_LARGE_RUNS=11                      timed runs per scenario and size
 *   BENCH_SCENARIOS=a,b                      only these scenarios
 *   BENCH_LARGE_ADMIN=0                      skip the admin list in Chromium (bench/large-admin.ts)
 *   BENCH_KEEP_DB=1                          keep the database (its name is printed)
 *   BENCH_LARGE_DB=name                      measure on a database kept before (grown only where it is smaller), never dropped
 *   BENCH_PG_URL                             PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ApiError, signIn, type Api } from './api.ts';
import { openAdmin, type AdminBrowser, type AdminTimings } from './large-admin.ts';
import { growTo } from './large-seed.ts';
import { largeScenarios, type LargeContext, type LargeScenario } from './large-scenarios.ts';
import { createContentSchema, createManyToManySchema } from './seed.ts';
import { createBenchDatabase, databaseUrl, startServer, type BenchDatabase, type ServerProcess } from './server.ts';

const SIZES = (process.env.BENCH_LARGE_SIZES ?? '10000,100000,1000000').split(',').map((size) => Number(size.trim()));
const RUNS = Number(process.env.BENCH_LARGE_RUNS ?? 11);
const WARMUPS = 2;
const ONLY = process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(',').map((name) => name.trim())) : null;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' } as const;
const ADMIN_LIST = process.env.BENCH_LARGE_ADMIN !== '0';
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

const log = (line = '') => process.stdout.write(`${line}\n`);
const load = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');

/** One scenario at one size: medians in ms, and the load average when it ran. */
interface Measured {
  scenario: string;
  size: number;
  tesseraMs: number;
  aloneMs: number;
  load: string;
}

async function median(runs: number, work: () => Promise<void>): Promise<number> {
  for (let i = 0; i < WARMUPS; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function measure(scenario: LargeScenario, context: LargeContext): Promise<Measured> {
  await scenario.prepare?.(context);
  try {
    const runs = scenario.runs ?? RUNS;
    // A read past DB_STATEMENT_TIMEOUT (10 s) answers 503 QUERY_TIMEOUT: reported as such, the run goes on.
    const tesseraMs = await median(runs, () => scenario.tessera(context)).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 503) return Number.POSITIVE_INFINITY;
      throw error;
    });
    const aloneMs = await median(runs, () => scenario.alone(context));
    return { scenario: scenario.name, size: context.size, tesseraMs, aloneMs, load: load() };
  } finally {
    await scenario.cleanup?.(context);
  }
}

const ms = (value: number) => (value === Number.POSITIVE_INFINITY ? '503 (statement timeout)' : value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0));
const sizeLabel = (size: number) => (size >= 1_000_000 ? `${size / 1_000_000}M` : size >= 1000 ? `${size / 1000}k` : String(size));

/** The markdown table of docs/performance.md: per size Tessera ms | alone ms, then the growth of each from the first size to the last. */
function table(results: Measured[], scenarios: LargeScenario[]): string {
  const sizes = [...new Set(results.map((result) => result.size))];
  const header = ['scenario', ...sizes.flatMap((size) => [`${sizeLabel(size)} Tessera ms`, `${sizeLabel(size)} PG alone ms`]), 'growth Tessera', 'growth PG alone'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const scenario of scenarios) {
    const rows = sizes.map((size) => results.find((result) => result.scenario === scenario.name && result.size === size));
    if (rows.every((row) => row === undefined)) continue;
    const cells = rows.flatMap((row) => (row ? [ms(row.tesseraMs), ms(row.aloneMs)] : ['-', '-']));
    const first = rows[0];
    const last = rows[rows.length - 1];
    const growth = (pick: (row: Measured) => number) => (first && last && rows.length > 1 ? `${(pick(last) / pick(first)).toFixed(1)}x` : '-');
    lines.push(`| ${[scenario.name, ...cells, growth((row) => row.tesseraMs), growth((row) => row.aloneMs)].join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The admin list at one size: a first opening (warms its code and plans), then the measured one. Saved views are removed first, so each opening starts on page 1. */
async function measureAdmin(admin: AdminBrowser, api: Api): Promise<AdminTimings> {
  const forgetViews = async () => {
    const { data } = await api.call<{ data: Array<{ id: number }> }>('GET', '/presets?fields=id&limit=-1');
    if (data.length > 0) await api.call('DELETE', '/presets', data.map((preset) => preset.id));
  };
  await forgetViews();
  await admin.measure();
  await forgetViews();
  return admin.measure();
}

async function main(): Promise<void> {
  let database: BenchDatabase | null = null;
  let server: ServerProcess | null = null;
  const results: Measured[] = [];
  const adminResults: Array<AdminTimings & { size: number; load: string }> = [];
  let admin: AdminBrowser | null = null;
  const scenarios = largeScenarios().filter((scenario) => ONLY === null || ONLY.has(scenario.name));
  try {
    const kept = process.env.BENCH_LARGE_DB;
    database = kept ? { name: kept, url: databaseUrl(kept), drop: async () => undefined } : await createBenchDatabase('_large');
    log(`Large tables: sizes ${SIZES.join(', ')}, ${RUNS} runs per scenario; ${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}; load ${load()}`);
    server = await startServer({ databaseUrl: database.url, secret: 'bench-secret-large-tables-0123456789', adminEmail: ADMIN.email, adminPassword: ADMIN.password });
    const api = await signIn(server.base, ADMIN.email, ADMIN.password);
    if (!kept) {
      await createContentSchema(api);
      await createManyToManySchema(api);
      // A project with a million articles indexes what its lists sort by (docs/indexes.md).
      await api.call('PATCH', '/fields/articles/published_on', { schema: { is_indexed: true } });
    }
    if (ADMIN_LIST) admin = await openAdmin(server.base, ADMIN.email, ADMIN.password);
    const alone = new pg.Client({ connectionString: database.url });
    await alone.connect();
    try {
      for (const size of SIZES) {
        log(`\n== ${size} articles (load ${load()})`);
        await growTo(database.url, size, log);
        const context: LargeContext = { api, client: alone, size, state: {} };
        // The admin first, while the table holds exactly `size` articles (import adds some).
        if (admin) {
          const timings = { ...(await measureAdmin(admin, api)), size, load: load() };
          adminResults.push(timings);
          log(`  admin list (Chromium)  first page ${ms(timings.firstPageMs)} ms, next page ${ms(timings.nextPageMs)} ms, last page ${ms(timings.lastPageMs)} ms; shows "${timings.countText}" (load ${timings.load})`);
        }
        for (const scenario of scenarios) {
          const result = await measure(scenario, context);
          results.push(result);
          log(`  ${scenario.name.padEnd(22)} Tessera ${ms(result.tesseraMs).padStart(8)} ms   PG alone ${ms(result.aloneMs).padStart(8)} ms   (load ${result.load})`);
        }
      }
    } finally {
      await alone.end();
    }
    log(`\n${scenarios.map((scenario) => `- ${scenario.name}: ${scenario.example}`).join('\n')}\n`);
    log(table(results, scenarios));
    if (adminResults.length > 0) {
      log('\n| admin list (Chromium) | first page ms | next page ms | last page ms | count shown |\n|---|---|---|---|---|');
      for (const row of adminResults) log(`| ${sizeLabel(row.size)} | ${ms(row.firstPageMs)} | ${ms(row.nextPageMs)} | ${ms(row.lastPageMs)} | ${row.countText} |`);
    }
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(`${RESULTS}large-tables.json`, `${JSON.stringify({ date: new Date().toISOString(), sizes: SIZES, runs: RUNS, results, admin: adminResults }, null, 2)}\n`);
  } finally {
    await admin?.close().catch((error: unknown) => log(`could not close the browser: ${String(error)}`));
    await server?.stop().catch((error: unknown) => log(`could not stop the server: ${String(error)}`));
    if (database && process.env.BENCH_KEEP_DB === '1') log(`kept database ${database.name} (${database.url})`);
    else await database?.drop().catch((error: unknown) => log(`could not drop the database: ${String(error)}`));
  }
}

await main();
