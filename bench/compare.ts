/**
 * Two commits side by side (`npm run bench:compare -- --base <git ref>`): checks the base ref out in a
 * temporary git worktree (node_modules linked to this tree's), starts the base and this working tree's
 * server, each on its own fresh database seeded alike, and runs the chosen scenarios INTERLEAVED (base,
 * head, base, head, … for every round) so that whatever else the machine does hits both about equally.
 * Prints each run's req/s, the medians, the ratio head/base, and CPU (and with --statements SQL
 * statements) per request. docs/performance.md, "Comparing two commits".
 *
 *   --base <ref>          the commit to compare with (required)
 *   --head <ref>          a commit to compare instead of the working tree (checked out like the base)
 *   --scenarios a,b       scenario names of bench/scenarios.ts (default read_one,list_100,create,update)
 *   --rounds 3            runs of each scenario on each server (at least 3)
 *   --duration 10         measured seconds per run (--warmup 2 unmeasured seconds before each)
 *   --connections 10      autocannon connections
 *   --articles 10000      articles to seed (--authors 1000)
 *   --statements          count the SQL statements per request (bench/statement-counter.ts preloaded)
 *   --head-env K=V        an environment variable for the head server only (repeatable), e.g. to measure
 *                         a feature switched on against the base without it (OTEL_EXPORTER_OTLP_ENDPOINT=…)
 *   --keep                keep both databases afterwards (names printed), for psql and EXPLAIN
 *   --profile             profile both servers (V8 sampler over the inspector) in each measured window; writes
 *                         bench/results/profiles/compare-<side>-<scenario>.cpuprofile (last round) and prints
 *                         each side's summary (the profiler costs both sides some throughput)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { signIn, type Api } from './api.ts';
import { snapshot, usageBetween } from './cpu.ts';
import { preflight, runLoad, type Scenario } from './load.ts';
import { connectInspector, formatSummary, summarize, type Inspector } from './profile.ts';
import { benchPostgresPids } from './postgres-pids.ts';
import { scenarios } from './scenarios.ts';
import { fixed, LOAD_OPTIONS, markdownTable, median, medianOf, wholeNumber } from './side-by-side.ts';
import { restrictedReader, seedStandardContent } from './seed.ts';
import { createBenchDatabase, startServer, type BenchDatabase, type ServerProcess } from './server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROFILES = path.join(ROOT, 'bench', 'results', 'profiles');
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' } as const;
const log = (line = '') => process.stdout.write(`${line}\n`);

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    head: { type: 'string' },
    scenarios: { type: 'string', default: 'read_one,list_100,create,update' },
    ...LOAD_OPTIONS,
    statements: { type: 'boolean', default: false },
    'head-env': { type: 'string', multiple: true, default: [] },
    keep: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});

const count = (name: keyof typeof args, minimum: number) => wholeNumber(args, name, minimum);

/** `--head-env K=V` values as an environment; a value without `=` is a usage error. */
function headEnv(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`--head-env ${pair}: expected NAME=value`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

type Side = 'base' | 'head';

interface Contender {
  side: Side;
  label: string;
  database: BenchDatabase;
  server: ServerProcess;
  admin: Api;
  reader: Api | null;
  scenarios: Scenario[];
  statementFile: string | null;
  inspector: Inspector | null;
}

interface Run {
  rps: number;
  serverMs: number | null;
  postgresMs: number | null;
  statements: number | null;
  failed: number;
}

/** Asks the server's statement counter for the statements since the last ask (bench/statement-counter.ts). */
async function takeStatementCounts(contender: Contender): Promise<Record<string, number> | null> {
  const file = contender.statementFile;
  if (!file) return null;
  rmSync(file, { force: true });
  contender.server.child.kill('SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${contender.label}: the statement counter wrote nothing (is bench/statement-counter.ts preloaded?)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
}

async function measure(contender: Contender, name: string, settings: { connections: number; durationS: number; warmupS: number }): Promise<Run> {
  const scenario = contender.scenarios.find((candidate) => candidate.name === name)!;
  const caller = scenario.as === 'restricted' ? contender.reader! : contender.admin;
  if (scenario.before) await scenario.before(contender.admin);
  try {
    await preflight(caller, scenario);
    if (settings.warmupS > 0) await runLoad(contender.server.base, caller.token, scenario, { connections: settings.connections, durationS: settings.warmupS });
    const pids = await benchPostgresPids(contender.database.url, contender.database.name);
    await takeStatementCounts(contender);
    await contender.inspector?.start();
    const before = snapshot(contender.server.child.pid, pids);
    const load = await runLoad(contender.server.base, caller.token, scenario, { connections: settings.connections, durationS: settings.durationS });
    const cpu = usageBetween(before, snapshot(contender.server.child.pid, pids), load.requests);
    if (contender.inspector) {
      const profile = await contender.inspector.stop();
      mkdirSync(PROFILES, { recursive: true });
      writeFileSync(path.join(PROFILES, `compare-${contender.side}-${name}.cpuprofile`), JSON.stringify(profile));
      // bench:profile-diff divides each profile's times by its requests.
      writeFileSync(path.join(PROFILES, `compare-${contender.side}-${name}.requests`), String(load.requests));
      log(formatSummary(`${contender.side} ${name}`, summarize(profile), load.requests));
    }
    const counts = await takeStatementCounts(contender);
    const statements = counts === null ? null : Object.values(counts).reduce((sum, n) => sum + n, 0) / Math.max(1, load.requests);
    return { rps: load.rps, serverMs: cpu.serverMs, postgresMs: cpu.postgresMs, statements, failed: load.non2xx + load.errors + load.timeouts };
  } finally {
    await scenario.after?.(contender.admin);
  }
}

function printTable(names: string[], runs: Map<string, Record<Side, Run[]>>, withStatements: boolean): void {
  const header = ['scenario', 'base req/s (runs)', 'head req/s (runs)', 'base median', 'head median', 'head/base', 'tessera ms/req b→h', 'postgres ms/req b→h'];
  if (withStatements) header.push('statements/req b→h');
  const rows = names.map((name) => {
    const { base, head } = runs.get(name)!;
    const baseRps = median(base.map((run) => run.rps));
    const headRps = median(head.map((run) => run.rps));
    const row = [
      name,
      base.map((run) => run.rps.toFixed(0)).join(' · '),
      head.map((run) => run.rps.toFixed(0)).join(' · '),
      baseRps.toFixed(0),
      headRps.toFixed(0),
      (headRps / baseRps).toFixed(2),
      `${fixed(medianOf(base, (run) => run.serverMs), 2)} → ${fixed(medianOf(head, (run) => run.serverMs), 2)}`,
      `${fixed(medianOf(base, (run) => run.postgresMs), 2)} → ${fixed(medianOf(head, (run) => run.postgresMs), 2)}`,
    ];
    if (withStatements) row.push(`${fixed(medianOf(base, (run) => run.statements), 2)} → ${fixed(medianOf(head, (run) => run.statements), 2)}`);
    return row;
  });
  for (const line of markdownTable(header, rows)) log(line);
}

async function main(): Promise<number> {
  if (!args.base) throw new Error('Usage: npm run bench:compare -- --base <git ref> [--scenarios read_one,create] [--rounds 3] [--statements] [--profile]');
  const settings = { connections: count('connections', 1), durationS: count('duration', 1), warmupS: count('warmup', 0) };
  const rounds = count('rounds', 3);
  const counts = { authors: count('authors', 1), articles: count('articles', 1), batchSize: 500 };
  const names = args.scenarios.split(',').map((name) => name.trim()).filter(Boolean);
  const known = scenarios([1], [1], ADMIN);
  for (const name of names) {
    const scenario = known.find((candidate) => candidate.name === name);
    if (!scenario) throw new Error(`Unknown scenario "${name}"; known: ${known.filter((s) => !s.cached).map((s) => s.name).join(', ')}.`);
    if (scenario.cached) throw new Error(`${name} needs a second, cached server: not supported by bench:compare.`);
  }

  const baseCommit = git('rev-parse', '--verify', `${args.base}^{commit}`);
  const headCommit = git('rev-parse', '--verify', `${args.head ?? 'HEAD'}^{commit}`);
  const dirty = args.head ? '' : git('status', '--porcelain', '--untracked-files=no');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'tessera-compare-'));
  const baseTree = path.join(scratch, 'base');
  const headTree = args.head ? path.join(scratch, 'head') : ROOT;
  const contenders: Contender[] = [];
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const contender of contenders) contender.inspector?.close();
      for (const contender of contenders) await contender.server.stop().catch((error: unknown) => log(`could not stop the ${contender.side} server: ${String(error)}`));
      for (const contender of contenders) {
        if (args.keep) log(`kept the ${contender.side} database: ${contender.database.url}`);
        else await contender.database.drop().catch((error: unknown) => log(`could not drop ${contender.database.name}: ${String(error)}`));
      }
      for (const tree of args.head ? [baseTree, headTree] : [baseTree]) {
        try {
          if (existsSync(tree)) git('worktree', 'remove', '--force', tree);
        } catch (error) {
          log(`could not remove the worktree ${tree}: ${String(error)}`);
        }
      }
      rmSync(scratch, { recursive: true, force: true });
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    log(`bench:compare: base ${args.base} (${baseCommit.slice(0, 7)}) against head ${args.head ?? 'working tree at'} ${headCommit.slice(0, 7)}${dirty ? ' with uncommitted changes' : ''}`);
    log(`${rounds} rounds of ${names.join(', ')}; ${settings.connections} connections, ${settings.durationS} s per run (+${settings.warmupS} s warm-up), runs interleaved base, head, base, head, …`);
    // The checked-out trees run on this tree's packages: fine for recent refs; an older one whose
    // dependencies differ fails at start with the missing module named.
    const checkouts: Array<[string, string]> = args.head ? [[baseTree, baseCommit], [headTree, headCommit]] : [[baseTree, baseCommit]];
    for (const [tree, commit] of checkouts) {
      git('worktree', 'add', '--detach', tree, commit);
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
    }

    for (const [side, root] of [['base', baseTree], ['head', headTree]] as const) {
      const database = await createBenchDatabase(`_${side}`);
      const env: Record<string, string> = { DATA_DIR: mkdtempSync(path.join(scratch, `data-${side}-`)) };
      if (side === 'head') Object.assign(env, headEnv(args['head-env']));
      let statementFile: string | null = null;
      if (args.statements) {
        statementFile = path.join(scratch, `statements-${side}.json`);
        env.NODE_OPTIONS = `--import=${fileURLToPath(new URL('./statement-counter.ts', import.meta.url))}`;
        env.STATEMENT_COUNT_FILE = statementFile;
      }
      const nodeArgs = args.profile ? ['--inspect=127.0.0.1:0'] : [];
      let server: ServerProcess;
      try {
        server = await startServer({ root, databaseUrl: database.url, secret: `bench-secret-${process.pid}-${side}-0123456789abcdefghijklmnop`, adminEmail: ADMIN.email, adminPassword: ADMIN.password, env, nodeArgs });
      } catch (error) {
        await database.drop();
        throw error;
      }
      log(`\n${side}: Tessera (pid ${server.child.pid}) on ${server.base}, database ${database.name}; seeding through the API:`);
      const admin = await signIn(server.base, ADMIN.email, ADMIN.password);
      const contender: Contender = { side, label: side, database, server, admin, reader: null, scenarios: [], statementFile, inspector: null };
      contenders.push(contender);
      if (args.profile) {
        if (!server.inspectorUrl) throw new Error(`${side}: --profile, but the server printed no inspector URL.`);
        contender.inspector = await connectInspector(server.inspectorUrl);
      }
      const seeded = await seedStandardContent(admin, database.url, counts, (line) => log(line));
      contender.scenarios = scenarios(seeded.articleIds, seeded.authorIds, ADMIN);
      if (names.some((name) => contender.scenarios.find((s) => s.name === name)?.as === 'restricted')) contender.reader = await restrictedReader(admin);
    }

    const runs = new Map<string, Record<Side, Run[]>>(names.map((name) => [name, { base: [], head: [] }]));
    let failed = 0;
    log('\nLoad (autocannon), interleaved:');
    for (const name of names) {
      for (let round = 1; round <= rounds; round++) {
        for (const contender of contenders) {
          const run = await measure(contender, name, settings);
          runs.get(name)![contender.side].push(run);
          failed += run.failed;
          log(`  ${name.padEnd(12)} round ${round} ${contender.side}: ${run.rps.toFixed(0).padStart(6)} req/s, tessera ${fixed(run.serverMs, 2)} ms/req, postgres ${fixed(run.postgresMs, 2)} ms/req${run.statements === null ? '' : `, ${run.statements.toFixed(2)} statements/req`}${run.failed ? `, ${run.failed} FAILED requests` : ''}`);
        }
      }
    }

    log(`\nbase ${args.base} (${baseCommit.slice(0, 7)}) against head ${headCommit.slice(0, 7)}${dirty ? '+' : ''}, ${rounds} interleaved rounds, ${settings.durationS} s each:\n`);
    printTable(names, runs, Boolean(args.statements));
    if (failed > 0) {
      log(`\nFAILED: ${failed} requests answered non-2xx, errored or timed out.`);
      for (const contender of contenders) log(`\n${contender.side} server output:\n${contender.server.output()}`);
      return 1;
    }
    if (args.profile) log(`\nCPU profiles of the last round: ${PROFILES}/compare-<side>-<scenario>.cpuprofile`);
    return 0;
  } finally {
    await cleanup();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  log(`\nbench:compare failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
