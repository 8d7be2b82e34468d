import { sql } from 'kysely';
import type pg from 'pg';
import type { Gauge, Histogram } from 'prom-client';
import type { AppContext } from '../app-context.ts';

/** What /metrics reads from the connection pool at each scrape. */
export interface PoolReadings {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * Times every wait for a pooled connection into `wait` (the time between asking the pool and getting a
 * connection) and returns how to read the pool's counts and how to stop timing.
 */
export async function instrumentPool(app: AppContext, wait: Histogram): Promise<{ read(): PoolReadings; restore(): void }> {
  const connection = app.database.orm.em.getConnection() as unknown as { getNativeClient(): Promise<pg.Pool> };
  const pool = await connection.getNativeClient();
  const original = pool.connect;
  const timed = function (this: pg.Pool, callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) {
    const started = performance.now();
    const observe = () => wait.observe((performance.now() - started) / 1000);
    if (typeof callback === 'function') {
      return (original as (cb: typeof callback) => void).call(this, (error, client, done) => {
        observe();
        callback(error, client, done);
      });
    }
    const acquired = (original as () => Promise<pg.PoolClient>).call(this);
    acquired.then(observe, observe);
    return acquired;
  };
  pool.connect = timed as typeof pool.connect;
  return {
    read: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: app.config.database.poolMax }),
    restore: () => {
      if (pool.connect === (timed as unknown)) pool.connect = original;
    },
  };
}

/** The gauges of the shared queues, read from the database at each scrape: the same on every instance. */
export interface QueueGauges {
  jobsQueued: Gauge;
  jobsOldestAge: Gauge;
  jobsRetrying: Gauge;
  jobsFailed: Gauge;
  outboxEvents: Gauge;
  outboxLag: Gauge;
}

/**
 * Refreshes the job queue (graphile-worker) and automation outbox gauges with two statements. A job counts
 * as failed once it has used all its attempts (graphile-worker keeps it until it is removed).
 */
export async function readQueues(app: AppContext, gauges: QueueGauges): Promise<void> {
  const db = app.database.kysely();
  const { rows: present } = await sql<{ jobs: boolean; outbox: boolean }>`select to_regclass('graphile_worker._private_jobs') is not null as jobs,
      to_regclass('tessera_automation.outbox') is not null as outbox`.execute(db);
  const { jobs, outbox } = present[0] ?? { jobs: false, outbox: false };
  if (jobs) {
    const { rows } = await sql<{ task: string; queued: number; oldest: number; retrying: number; failed: number }>`select t.identifier as task,
          count(*) filter (where j.attempts < j.max_attempts)::int as queued,
          coalesce(extract(epoch from now() - min(j.created_at) filter (where j.attempts < j.max_attempts)), 0)::float8 as oldest,
          count(*) filter (where j.attempts > 0 and j.attempts < j.max_attempts)::int as retrying,
          count(*) filter (where j.attempts >= j.max_attempts)::int as failed
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       group by t.identifier`.execute(db);
    for (const gauge of [gauges.jobsQueued, gauges.jobsOldestAge, gauges.jobsRetrying, gauges.jobsFailed]) gauge.reset();
    for (const row of rows) {
      gauges.jobsQueued.set({ task: row.task }, row.queued);
      gauges.jobsOldestAge.set({ task: row.task }, Math.max(0, row.oldest));
      gauges.jobsRetrying.set({ task: row.task }, row.retrying);
      gauges.jobsFailed.set({ task: row.task }, row.failed);
    }
  }
  if (outbox) {
    const { rows } = await sql<{ events: number; lag: number }>`select count(*)::int as events,
        coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as lag from tessera_automation.outbox`.execute(db);
    gauges.outboxEvents.set(rows[0]?.events ?? 0);
    gauges.outboxLag.set(Math.max(0, rows[0]?.lag ?? 0));
  }
}
