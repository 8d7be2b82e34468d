import { sql, type Kysely } from 'kysely';
import { readQueuedJobs, type QueuedJob } from '../jobs/queued-jobs.ts';
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

/** The log of a webhook's deliveries (newest first) and the ones still queued. */
export async function readDeliveries(db: Kysely<any>, webhook: number, limit: number): Promise<{ attempts: DeliveryAttempt[]; queued: QueuedJob[] }> {
  const attempts = await sql<DeliveryAttempt>`select id::text, job_id, event, collection, attempt, max_attempts, status, http_status, error, duration_ms, date_created
      from tessera_automation.webhook_deliveries where webhook = ${webhook} order by id desc limit ${limit}`.execute(db);
  const queued = await readQueuedJobs(db, WEBHOOK_TASK, 'webhook', String(webhook));
  return { attempts: attempts.rows, queued };
}
