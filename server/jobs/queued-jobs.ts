import { sql, type Kysely } from 'kysely';

/**
 * A durable job not yet finished: waiting, running, or waiting for its next attempt. Listed in `meta.queued`
 * of a webhook's delivery log and a flow's run log; the admin reads it too (admin/src/jobs/use-job-log.ts).
 */
export interface QueuedJob {
  job_id: string;
  state: 'queued' | 'running' | 'retrying';
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  run_at: string;
}

/** The unfinished jobs of `task` whose payload has `value` under `key`, oldest first. */
export async function readQueuedJobs(db: Kysely<any>, task: string, key: string, value: string): Promise<QueuedJob[]> {
  // graphile-worker's public `jobs` view leaves the payload out; it is only in the private table.
  const queued = await sql<QueuedJob>`select j.id::text as job_id,
        case when j.locked_at is not null then 'running' when j.attempts > 0 then 'retrying' else 'queued' end as state,
        j.attempts, j.max_attempts, j.last_error, j.run_at
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = ${task} and j.payload->>${key}::text = ${value} order by j.id`.execute(db);
  return queued.rows;
}
