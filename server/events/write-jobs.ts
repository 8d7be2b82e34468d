import { sql, type RawBuilder } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { flowListens } from '../flows/enqueue-flow-runs.ts';
import { webhookListens } from '../webhooks/enqueue-deliveries.ts';
import { eventAccountability, type ItemAction } from './event-names.ts';

/** The columns of an outbox row the listener conditions read, as SQL expressions. */
export interface OutboxEvent {
  collection: RawBuilder<unknown>;
  action: RawBuilder<unknown>;
}

/** One announcement of a write: its keys (a jsonb array expression) and the payload listeners receive. */
export interface WriteEvent {
  keys: RawBuilder<unknown>;
  payload: unknown;
}

/**
 * The INSERT that records a write's events in the outbox (tessera_automation.outbox), when a webhook or an
 * event action flow listens to them, and nothing otherwise. The caller runs it on the write's own
 * connection, so the events commit or roll back with the write; the outbox relay then turns committed
 * events into their jobs (webhook deliveries, flow runs) in batches. A plain insert here costs the write a
 * fraction of what enqueueing its jobs in the same transaction did (graphile-worker's add_jobs() with its
 * NOTIFY). Returns the ids, so it can stand as a CTE that a statement reads.
 */
export function writeJobs(collection: string, action: ItemAction, events: WriteEvent[], accountability: Accountability): RawBuilder<unknown> {
  const target: { collection: RawBuilder<unknown>; action: RawBuilder<unknown> } = { collection: sql`${collection}::text`, action: sql`${action}::text` };
  const rows = sql.join(events.map((event) => sql`(${event.keys}, ${JSON.stringify(event.payload ?? null)}::jsonb)`));
  return sql`insert into tessera_automation.outbox (collection, action, keys, payload, accountability)
    select ${target.collection}, ${target.action}, v.keys, v.payload, ${JSON.stringify(eventAccountability(accountability))}::jsonb
      from (values ${rows}) v (keys, payload)
     where exists (select 1 from tessera_webhooks w where ${webhookListens(target.collection, target.action)})
        or exists (select 1 from tessera_flows f where ${flowListens(target.collection, target.action)})
    returning id`;
}
