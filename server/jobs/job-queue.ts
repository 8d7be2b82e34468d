import { Logger as WorkerLogger, run, runMigrations, type Runner, type TaskList } from 'graphile-worker';
import pg from 'pg';
import type { Logger } from '../logger.ts';

/** Jobs a Tessera process works on at once. */
const CONCURRENCY = 2;

/** application_name of the job worker's database connections. */
export const JOBS_APPLICATION_NAME = 'tessera_jobs';

/** Jobs one worker fetches and locks at a time. */
const LOCAL_QUEUE_SIZE = 10;
/** How long a finished job waits to be marked done together with others. */
const BATCH_DELAY_MS = 10;

/** Connections a worker opens: one per running job plus its LISTEN connection and one spare. */
export const JOB_CONNECTIONS = CONCURRENCY + 2;

/**
 * graphile-worker's errors that it recovers from by itself (the LISTEN connection is dropped and opened
 * again with a backoff): during a PostgreSQL restart they are warnings, not errors, since nobody has to act.
 */
const RETRIED = [/^Error with notify listener \(trying again/, /^Error occurred fetching jobs; will try again/, /^Error occurred attempting to UNLISTEN/, /^Failed to reset locked; we'll try again/];

/** Routes graphile-worker's log lines into the app's logger. */
function workerLogger(logger: Logger | undefined): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    if (!logger) return;
    const retried = level === 'error' && RETRIED.some((pattern) => pattern.test(message));
    const target = level === 'error' && !retried ? 'error' : level === 'warning' || retried ? 'warn' : level === 'info' ? 'debug' : 'trace';
    logger[target]({ jobs: scope, ...meta }, message);
  });
}

/**
 * Installs or upgrades graphile-worker's schema (`graphile_worker`). Its own migrations run after
 * Tessera's: MikroORM never sees that schema (Tessera never calls schema.update()), and
 * `graphile_worker.add_job()` must exist before the first write enqueues a delivery.
 * Prepared statements stay off: the embedded database serves every connection from one session, where
 * two connections preparing the same statement name collide.
 */
export async function installJobQueue(url: string, logger?: Logger): Promise<void> {
  await runMigrations({ connectionString: url, noPreparedStatements: true, logger: workerLogger(logger) });
}

/** A running worker and how to stop it. */
export interface JobWorker {
  /** Stops taking jobs and waits for the running ones. */
  stop(): Promise<void>;
}

/**
 * Starts a worker on the job queue. Each job is locked by one worker (FOR UPDATE SKIP LOCKED), so with
 * several Tessera processes on one database each job runs once; a failed job is retried with
 * exponential backoff until its max_attempts. `crontab` lines (graphile-worker's format) enqueue recurring jobs.
 */
export async function startJobWorker(options: { url: string; logger: Logger; tasks: TaskList; crontab?: string; pollIntervalMs?: number; concurrency?: number }): Promise<JobWorker> {
  // The worker's pool is ours, so its error listener outlives the runner: graphile-worker removes its own
  // listeners when it stops, and a connection the database ends afterwards (a restart, a dropped database)
  // would otherwise be an uncaught 'error' event that takes the process down.
  // Named, so pg_stat_activity (and the automation bench) tells the queue's connections from the requests'.
  const pool = new pg.Pool({ connectionString: options.url, max: (options.concurrency ?? CONCURRENCY) + 2, application_name: JOBS_APPLICATION_NAME });
  pool.on('error', (error) => options.logger.warn({ err: error }, 'job queue: a database connection ended'));
  pool.on('connect', (client) => client.on('error', () => undefined));
  let runner: Runner;
  try {
    runner = await run({
      pgPool: pool,
      concurrency: options.concurrency ?? CONCURRENCY,
      noHandleSignals: true,
      noPreparedStatements: true,
      pollInterval: options.pollIntervalMs ?? 1000,
      logger: workerLogger(options.logger),
      taskList: options.tasks,
      // Recurring jobs: graphile-worker enqueues each tick once across every worker on the database.
      crontab: options.crontab ?? '',
      // Fewer queue round trips per job when a backlog builds (a burst of writes): jobs are fetched and
      // locked LOCAL_QUEUE_SIZE at a time, and completions within a few milliseconds are marked done in one
      // statement (failures, rare, are marked at once: the delivery log and the queue agree as soon as possible). A job finished but not yet marked when the process is killed runs again (at least once,
      // as for any job interrupted by a crash); a graceful stop flushes both first.
      preset: { worker: { localQueue: { size: LOCAL_QUEUE_SIZE }, completeJobBatchDelay: BATCH_DELAY_MS } },
    });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    async stop() {
      await runner.stop();
      await pool.end();
    },
  };
}
