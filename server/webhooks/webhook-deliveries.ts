import { sql, type Kysely } from 'kysely';
import { WEBHOOK_TASK } from './enqueue-deliveries.ts';

/** One attempt to call a webhook, as logged. */
export interface DeliveryAttempt {
  id: string;
  job_id: string;
  event: string;
  collection: string | null;
  attempt: number;
  max_attempts: number;
  status: 'success' | 'failed';
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  date_created: string;
}

/** A delivery still in the queue: waiting, running, or waiting for its next retry. */
export interface QueuedDelivery {
  job_id: string;
  state: 'queued' | 'running' | 'retrying';
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  run_at: string;
}

/** The log of a webhook's deliveries (newest first) and the ones still queued. */
export async function readDeliveries(db: Kysely<any>, webhook: number, limit: number): Promise<{ attempts: DeliveryAttempt[]; queued: QueuedDelivery[] }> {
  const attempts = await sql<DeliveryAttempt>`select id::text, job_id, event, collection, attempt, max_attempts, status, http_status, error, duration_ms, date_created
      from tessera_automation.webhook_deliveries where webhook = ${webhook} order by id desc limit ${limit}`.execute(db);
  // graphile-worker's public `jobs` view leaves the payload out; the webhook id is only in the private table.
  const queued = await sql<QueuedDelivery>`select j.id::text as job_id,
        case when j.locked_at is not null then 'running' when j.attempts > 0 then 'retrying' else 'queued' end as state,
        j.attempts, j.max_attempts, j.last_error, j.run_at
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = ${WEBHOOK_TASK} and j.payload->>'webhook' = ${String(webhook)} order by j.id`.execute(db);
  return { attempts: attempts.rows, queued: queued.rows };
}
