import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import type { Config } from '../server/config/index.ts';
import { openSystemContext } from './context.ts';
import { UsageError } from './errors.ts';
import type { StartTimings } from './start-timings.ts';

/** What a worker tells the primary. */
export type WorkerMessage = { type: 'listening'; port: number };

/** Below this many cores one process serves by default: a second would compete with PostgreSQL for the same cores. */
const CLUSTER_FROM_CORES = 4;

/** A worker that dies sooner than this after its start is replaced only after RESTART_DELAY_MS (no crash loop). */
const EARLY_DEATH_MS = 5_000;
const RESTART_DELAY_MS = 1_000;

/**
 * How many processes serve: `--workers N` when given, else the number of cores on machines with 4 or more.
 * Several workers need PostgreSQL (DB_URL: the embedded database lives in one process) and Redis
 * (REDIS_URL: each worker caches the schema and permissions, and only Redis tells the others of a change).
 * An explicit N > 1 without them is a usage error; the default falls back to 1 with a note saying why.
 */
export function workerCount(requested: number | undefined, config: Config, cores = os.availableParallelism()): { count: number; note: string | null } {
  const missing = [config.database.url ? null : 'DB_URL (PostgreSQL; the embedded database serves one process)', config.redis.url ? null : 'REDIS_URL (workers keep their schema and permission caches in step through Redis)'].filter(Boolean);
  if (requested !== undefined) {
    if (!Number.isInteger(requested) || requested < 1 || requested > 256) throw new UsageError(`--workers must be a whole number from 1 to 256 (got ${requested}).`);
    if (requested > 1 && missing.length > 0) throw new UsageError(`--workers ${requested} needs ${missing.join(' and ')}. Set it, or start with --workers 1.`);
    return { count: requested, note: null };
  }
  if (cores < CLUSTER_FROM_CORES) return { count: 1, note: null };
  if (missing.length > 0) return { count: 1, note: `Serving from one process on this ${cores}-core machine: several workers need ${missing.join(' and ')}.` };
  return { count: cores, note: null };
}

/**
 * The cluster primary: migrates and seeds the database once, forks `count` workers that share the port
 * (node:cluster hands connections out round-robin), replaces a worker that dies, and on SIGINT/SIGTERM
 * stops every worker gracefully (each finishes its requests and closes its database pool) before exiting.
 * The primary holds no database connection while serving.
 */
export async function runCluster(config: Config, count: number, options: { timings: StartTimings; printTimings: boolean }): Promise<void> {
  const { timings } = options;
  const { prepareDatabase, printWelcome, waitForShutdownSignal } = await import('./commands/start.ts');
  const shutdownSignal = waitForShutdownSignal();
  const context = await openSystemContext(config, { logTo: process.stdout, requireSchema: false, attach: false });
  timings.mark('database connect');
  let bootstrap;
  try {
    bootstrap = await prepareDatabase(context, timings);
  } finally {
    await context.close();
  }
  const logger = context.app.logger;

  let stopping = false;
  const started = new Map<Worker, number>();
  const fork = () => {
    const worker = cluster.fork();
    started.set(worker, Date.now());
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) return;
    logger.error({ worker: worker.process.pid, code, signal }, 'worker died; starting a new one');
    setTimeout(() => stopping || fork(), lived < EARLY_DEATH_MS ? RESTART_DELAY_MS : 0);
  });

  for (let i = 0; i < count; i++) fork();
  const port = await new Promise<number>((resolve) => {
    let listening = 0;
    const onMessage = (_worker: Worker, message: WorkerMessage) => {
      if (message?.type !== 'listening' || ++listening < count) return;
      cluster.off('message', onMessage);
      resolve(message.port);
    };
    cluster.on('message', onMessage);
  });
  timings.mark('workers listening');
  logger.info({ port, workers: count, startMs: Math.round(timings.sinceProcessStart()) }, 'cluster started');
  if (options.printTimings) process.stdout.write(timings.format());
  printWelcome(config.server.publicUrl.replace(`:${config.server.port}`, `:${port}`), bootstrap.admin, config.admin.email, count);

  const signal = await shutdownSignal;
  stopping = true;
  logger.info({ signal, workers: started.size }, 'stopping the workers');
  const exited = [...started.keys()].map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
  // Ctrl-C in a terminal reached every worker already; a service manager's SIGTERM reached only us.
  for (const worker of started.keys()) if (!worker.isDead()) worker.process.kill('SIGTERM');
  await Promise.all(exited);
  process.stdout.write('Tessera stopped.\n');
}
