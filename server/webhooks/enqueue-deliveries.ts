import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { eventAccountability, type ItemAction } from '../events/event-names.ts';
import { addJobs, jobSpec } from '../jobs/add-jobs.ts';

/** graphile-worker task that delivers one webhook call. */
export const WEBHOOK_TASK = 'tessera_webhook';
/** Attempts per delivery, the first included; retries back off exponentially (about 3 s, 7 s, 20 s, 55 s). */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/** The job payload: which webhook, and the request body Directus sends. */
export interface WebhookJob {
  webhook: number;
  body: { event: string; accountability: unknown; payload: unknown; keys: unknown; key?: unknown; collection: string };
}

/**
 * A SELECT of one job spec per active webhook listening to this write (enqueued with the write's other
 * jobs by `addJobs`, on the write's own connection, so the jobs commit or roll back with the write).
 * `keys` is a jsonb array expression (a parameter, or the key of the one-statement create's `ins` CTE).
 */
export function webhookJobs(collection: string, action: ItemAction, keys: RawBuilder<unknown>, payload: unknown, accountability: Accountability): RawBuilder<unknown> {
  const body = sql`jsonb_build_object(
    'event', ${`items.${action}`}::text,
    'accountability', ${JSON.stringify(eventAccountability(accountability))}::jsonb,
    'payload', case when w.data then ${JSON.stringify(payload ?? null)}::jsonb else null end,
    'keys', ${keys},
    'collection', ${collection}::text)${action === 'create' ? sql` || jsonb_build_object('key', (${keys})->0)` : sql``}`;
  return sql`select ${jobSpec(WEBHOOK_TASK, sql`jsonb_build_object('webhook', w.id, 'body', ${body})`, WEBHOOK_MAX_ATTEMPTS)} as spec
    from tessera_webhooks w
   where w.status = 'active'
     and ${action}::text = any(string_to_array(replace(w.actions, ' ', ''), ','))
     and ${collection}::text = any(string_to_array(replace(w.collections, ' ', ''), ','))`;
}

/** Enqueues the deliveries of one write (general path: inside the write's transaction). */
export async function enqueueWebhookDeliveries(db: Kysely<any>, collection: string, action: ItemAction, keys: Array<string | number>, payload: unknown, accountability: Accountability): Promise<void> {
  await addJobs(webhookJobs(collection, action, sql`${JSON.stringify(keys)}::jsonb`, payload, accountability)).execute(db);
}
