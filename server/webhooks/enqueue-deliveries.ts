import { sql, type RawBuilder } from 'kysely';
import { jobSpec } from '../jobs/add-jobs.ts';
import type { OutboxEvent } from '../events/write-jobs.ts';

/** graphile-worker task that delivers one webhook call. */
export const WEBHOOK_TASK = 'tessera_webhook';
/** Attempts per delivery, the first included; retries back off exponentially (about 3 s, 7 s, 20 s, 55 s). */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/** The job payload: which webhook, and the request body Directus sends. */
export interface WebhookJob {
  webhook: number;
  body: { event: string; accountability: unknown; payload: unknown; keys: unknown; key?: unknown; collection: string };
}

/** Whether the active webhook `w` listens to this action on this collection (text expressions). */
export function webhookListens(collection: RawBuilder<unknown>, action: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`w.status = 'active'
     and ${action} = any(string_to_array(replace(w.actions, ' ', ''), ','))
     and ${collection} = any(string_to_array(replace(w.collections, ' ', ''), ','))`;
}

/**
 * A SELECT of one job spec (and its event's id) per active webhook listening to each event of `events`, a
 * relation of outbox rows (server/jobs/outbox-relay.ts turns them into jobs with one `add_jobs()` call).
 */
export function webhookJobs(events: RawBuilder<unknown>): RawBuilder<unknown> {
  const o: OutboxEvent = { collection: sql`o.collection`, action: sql`o.action` };
  const body = sql`jsonb_build_object(
    'event', 'items.' || o.action,
    'accountability', o.accountability,
    'payload', case when w.data then o.payload else null end,
    'keys', o.keys,
    'collection', o.collection) || case when o.action = 'create' then jsonb_build_object('key', o.keys->0) else '{}'::jsonb end`;
  return sql`select ${jobSpec(WEBHOOK_TASK, sql`jsonb_build_object('webhook', w.id, 'body', ${body})`, WEBHOOK_MAX_ATTEMPTS)} as spec, o.id as event, 0 as kind
    from ${events} o join tessera_webhooks w on ${webhookListens(o.collection, o.action)}`;
}
