import { sql, type RawBuilder } from 'kysely';

/**
 * One `graphile_worker.job_spec` row: the task, its JSON payload and its attempts (no queue, run at once,
 * no job key, default priority). For the SELECTs that `addJobs` turns into jobs.
 */
export function jobSpec(task: string, payload: RawBuilder<unknown>, maxAttempts: number): RawBuilder<unknown> {
  return sql`row(${task}::text, (${payload})::json, null::text, null::timestamptz, ${maxAttempts}::int, null::text, null::int, null::text[])::graphile_worker.job_spec`;
}

/**
 * A SELECT that enqueues every job spec `specs` (a SELECT of one job_spec column) yields with one
 * `graphile_worker.add_jobs()` call: one insert and one wake-up notification for all the jobs of a write,
 * and no call at all when there are none. One row per job.
 */
export function addJobs(specs: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select graphile_worker.add_jobs(s.specs) as job from (select array(${specs}) as specs) s where cardinality(s.specs) > 0`;
}
