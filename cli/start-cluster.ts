import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import type { Config } from '../server/config/index.ts';
import type { BootstrapResult } from '../server/services/bootstrap.ts';
import { ExitError, UsageError } from './errors.ts';
import type { StartTimings } from './start-timings.ts';

/** What a worker tells the primary: the first one after migrating and seeding, each once it listens. */
export type WorkerMessage = { type: 'prepared'; admin: BootstrapResult['admin'] } | { type: 'listening'; port: number };

/** Set (to 1) in the environment of the first worker: it migrates and seeds before listening. */
export const PREPARE_ENV = 'TESSERA_CLUSTER_PREPARE';

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
 * The cluster primary: forks a first worker that migrates and seeds the database, then the other workers
 * once it has (they share the port: node:cluster hands connections out round-robin), replaces a worker that
 * dies, and on SIGINT/SIGTERM stops every worker gracefully (each finishes its requests and closes its pool)
 * before exiting, then its job process (JOBS_WORKER=process). The primary itself never loads the database
 * stack: it stays a small process.
 */
export async function runCluster(config: Config, count: number, options: { timings: StartTimings; printTimings: boolean }): Promise<void> {
  const { timings } = options;
  const [{ printWelcome, waitForShutdownSignal }, { createLogger }] = await Promise.all([import('./commands/start.ts'), import('../server/logger.ts')]);
  const logger = createLogger(config.log, process.stdout);
  const shutdownSignal = waitForShutdownSignal();

  let stopping = false;
  let prepared = false;
  const started = new Map<Worker, number>();
  const fork = (env: Record<string, string> = {}) => {
    const worker = cluster.fork(env);
    started.set(worker, Date.now());
    return worker;
  };
  let failedToPrepare: ((error: Error) => void) | null = null;
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) return;
    if (!prepared) {
      failedToPrepare?.(new ExitError(1, `The first worker stopped (exit ${code ?? signal}) before the database was ready; see its output above.`));
      return;
    }
    logger.error({ worker: worker.process.pid, code, signal }, 'worker died; starting a new one');
    setTimeout(() => stopping || fork(), lived < EARLY_DEATH_MS ? RESTART_DELAY_MS : 0);
  });

  const messages = (type: WorkerMessage['type'], wanted: number) =>
    new Promise<WorkerMessage[]>((resolve) => {
      const received: WorkerMessage[] = [];
      const onMessage = (_worker: Worker, message: WorkerMessage) => {
        if (message?.type !== type) return;
        received.push(message);
        if (received.length < wanted) return;
        cluster.off('message', onMessage);
        resolve(received);
      };
      cluster.on('message', onMessage);
    });
  const listening = messages('listening', count);
  const preparedMessage = messages('prepared', 1);
  fork({ [PREPARE_ENV]: '1' });
  const first = await Promise.race([
    preparedMessage,
    new Promise<never>((_, reject) => (failedToPrepare = reject)),
    shutdownSignal.then(() => null),
  ]);
  if (first === null) {
    stopping = true;
    await stopWorkers(started);
    return;
  }
  prepared = true;
  const admin = first[0]!.type === 'prepared' ? first[0]!.admin : null;
  timings.mark('first worker prepared');
  for (let i = 1; i < count; i++) fork();
  // JOBS_WORKER=process: one job process for the whole cluster, started by the primary (workers start none).
  const jobs = config.jobs.worker === 'process' ? await (await import('../server/jobs/job-process.ts')).startJobProcess({ logger }) : null;
  const port = await Promise.race([listening.then((all) => (all.at(-1) as { port: number }).port), shutdownSignal.then(() => null)]);
  if (port !== null) {
    timings.mark('workers listening');
    logger.info({ port, workers: count, startMs: Math.round(timings.sinceProcessStart()) }, 'cluster started');
    if (options.printTimings) process.stdout.write(timings.format());
    printWelcome(config.server.publicUrl.replace(`:${config.server.port}`, `:${port}`), admin, config.admin.email, count);
  }

  const signal = await shutdownSignal;
  stopping = true;
  logger.info({ signal, workers: started.size }, 'stopping the workers');
  await stopWorkers(started);
  await jobs?.stop();
  process.stdout.write('Tessera stopped.\n');
}

/** Sends SIGTERM to every live worker and waits until all have exited. */
async function stopWorkers(workers: Map<Worker, number>): Promise<void> {
  const exited = [...workers.keys()].map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
  // Ctrl-C in a terminal reached every worker already; a service manager's SIGTERM reached only us.
  for (const worker of workers.keys()) if (!worker.isDead()) worker.process.kill('SIGTERM');
  await Promise.all(exited);
}
