import { sql, type RawBuilder } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { flowRunJobs } from '../flows/enqueue-flow-runs.ts';
import { addJobs } from '../jobs/add-jobs.ts';
import { webhookJobs } from '../webhooks/enqueue-deliveries.ts';
import type { ItemAction } from './event-names.ts';

/**
 * The SELECT that enqueues everything durable one write causes: its webhook deliveries and its event
 * `action` flow runs, all with one `add_jobs()` call (none when nothing listens). The caller runs it on the
 * write's own connection, so the jobs commit or roll back with the write. `keys` is a jsonb array expression.
 */
export function writeJobs(collection: string, action: ItemAction, keys: RawBuilder<unknown>, payload: unknown, accountability: Accountability): RawBuilder<unknown> {
  return addJobs(sql`(${webhookJobs(collection, action, keys, payload, accountability)}) union all (${flowRunJobs(collection, action, keys, payload, accountability)})`);
}
