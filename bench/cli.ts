/**
 * How long CLI commands take from spawn to exit (`node bench/cli.ts [runs] [collections]`, defaults 10 and
 * 50), hyperfine-style: each command runs once to warm Node's compile cache, then `runs` times, interleaved
 * round by round so load on the machine falls on every command alike. `node -e 0` in the same rounds is the
 * floor: what starting Node costs here and now. The project is on PostgreSQL (BENCH_PG_URL) with a
 * generated snapshot of N collections applied (bench/generated-snapshot.ts). Targets (issue 36): `--help`
 * and argument errors ≤ 0.3 s, `diff`/`snapshot` on 50 collections ≤ 1 s. docs/performance.md keeps the numbers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemAccountability } from '../server/auth/accountability.ts';
import { createAppContext } from '../server/app-context.ts';
import { loadConfig } from '../server/config/index.ts';
import { openDatabase } from '../server/database/database.ts';
import { migrateLatest } from '../server/database/migrations.ts';
import { createLogger } from '../server/logger.ts';
import { bootstrapDatabase } from '../server/services/bootstrap.ts';
import { parseSnapshotDocument } from '../server/snapshot/load-snapshot.ts';
import { SnapshotService } from '../server/snapshot/snapshot-service.ts';
import { generatedSnapshot } from './generated-snapshot.ts';
import { createBenchDatabase } from './server.ts';

const TESSERA = fileURLToPath(new URL('../bin/tessera', import.meta.url));
const SECRET = 'bench-secret-that-is-long-enough-0123456789';

interface Command {
  name: string;
  args: string[];
  /** Exit codes that mean the command did what it should. */
  expect: number[];
}

/** Applies the generated project to a new database, as bench/snapshot.ts does. */
async function prepareProject(url: string, collections: number): Promise<void> {
  const config = loadConfig({ DB_URL: url, LOG_LEVEL: 'warn', SECRET });
  const logger = createLogger(config.log);
  const db = await openDatabase(config, logger);
  const app = createAppContext(config as typeof config & { secret: string }, logger, db);
  try {
    await migrateLatest(db.orm);
    await bootstrapDatabase(app.servicesContext(systemAccountability()));
    const service = new SnapshotService({ db: db.kysely(), schemaCache: app.schema, servicesContext: app.servicesContext }, systemAccountability(), {});
    await service.apply(parseSnapshotDocument(generatedSnapshot(collections), 'generated'));
  } finally {
    await app.dispose();
    await db.close();
  }
}

/** GNU time, when installed, reports the CPU the command used: on a loaded machine the steadier figure. */
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** Wall-clock ms of one run, and its CPU ms (user + system) when GNU time is there. */
function timeRun(command: Command, cwd: string, env: NodeJS.ProcessEnv): { wall: number; cpu: number | null } {
  const [file, args]: [string, string[]] = GNU_TIME ? [GNU_TIME, ['-f', 'CPU %U %S', process.execPath, ...command.args]] : [process.execPath, command.args];
  const started = performance.now();
  const result = spawnSync(file, args, { cwd, env, encoding: 'utf8' });
  const wall = performance.now() - started;
  if (!command.expect.includes(result.status ?? -1)) throw new Error(`${command.name}: exit ${result.status}\n${result.stdout}\n${result.stderr}`);
  const cpu = /CPU (\d+\.\d+) (\d+\.\d+)\s*$/.exec(result.stderr);
  return { wall, cpu: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 10);
  const collections = Number(process.argv[3] ?? 50);
  const database = await createBenchDatabase('_cli');
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-bench-cli-'));
  try {
    await prepareProject(database.url, collections);
    // No .env in `dir`: the commands read only what is given here.
    const env = { ...process.env, DB_URL: database.url, SECRET, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
    const commands: Command[] = [
      { name: 'node -e 0 (floor)', args: ['-e', '0'], expect: [0] },
      { name: 'tessera --help', args: [TESSERA, '--help'], expect: [0] },
      { name: 'tessera diff --bogus (argument error)', args: [TESSERA, 'diff', '--bogus'], expect: [2] },
      { name: `tessera snapshot (${collections} collections)`, args: [TESSERA, 'snapshot', '--out', path.join(dir, 'snapshots'), '--force'], expect: [0] },
      { name: `tessera diff (${collections} collections, in sync)`, args: [TESSERA, 'diff', '--from', path.join(dir, 'snapshots')], expect: [0] },
    ];
    // BENCH_CLI_BASE=<another checkout>: its help, snapshot and diff run in the same rounds, so both trees meet the same load.
    const base = process.env.BENCH_CLI_BASE;
    if (base) {
      const baseBin = path.join(base, 'bin', 'tessera');
      commands.push(
        { name: 'base: tessera --help', args: [baseBin, '--help'], expect: [0] },
        { name: `base: tessera snapshot (${collections} collections)`, args: [baseBin, 'snapshot', '--out', path.join(dir, 'base-snapshots'), '--force'], expect: [0] },
        { name: `base: tessera diff (${collections} collections, in sync)`, args: [baseBin, 'diff', '--from', path.join(dir, 'base-snapshots')], expect: [0] },
      );
    }
    const times = new Map<string, number[]>(commands.map((command) => [command.name, []]));
    const cpu = new Map<string, number[]>(commands.map((command) => [command.name, []]));
    for (const command of commands) timeRun(command, dir, env);
    for (let round = 0; round < runs; round++) {
      for (const command of commands) {
        const run = timeRun(command, dir, env);
        times.get(command.name)!.push(run.wall);
        if (run.cpu !== null) cpu.get(command.name)!.push(run.cpu);
      }
    }
    const floor = median(times.get(commands[0]!.name)!);
    const rows = commands.map((command) => {
      const values = times.get(command.name)!;
      const used = cpu.get(command.name)!;
      return {
        command: command.name,
        median_ms: Math.round(median(values)),
        min_ms: Math.round(Math.min(...values)),
        max_ms: Math.round(Math.max(...values)),
        over_floor_ms: Math.round(median(values) - floor),
        cpu_median_ms: used.length > 0 ? Math.round(median(used)) : null,
      };
    });
    process.stdout.write(`| command | median | min | max | over the floor | CPU (median) |\n|---|---|---|---|---|---|\n`);
    for (const row of rows) process.stdout.write(`| ${row.command} | ${row.median_ms} ms | ${row.min_ms} ms | ${row.max_ms} ms | ${row.over_floor_ms} ms | ${row.cpu_median_ms ?? '–'} ms |\n`);
    process.stdout.write(`load average after: ${loadavg().map((value) => value.toFixed(1)).join(' ')}\n`);
    process.stdout.write(`${JSON.stringify({ runs, collections, rows })}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

await main();
