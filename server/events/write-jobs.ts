import { sql, type RawBuilder } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { eventAccountability, type ItemAction } from './event-names.ts';

/** The columns of an outbox row the listener conditions read, as SQL expressions. */
export interface OutboxEvent {
  collection: RawBuilder<unknown>;
  action: RawBuilder<unknown>;
}

/** One announcement of a write: its keys (or a jsonb array expression of them) and the payload listeners receive. */
export interface WriteEvent {
  keys: Array<string | number> | RawBuilder<unknown>;
  payload: unknown;
}

/** The events as one jsonb array expression: one parameter when every key is known, else built in SQL. */
function eventsJson(events: WriteEvent[]): RawBuilder<unknown> {
  if (events.every((event) => Array.isArray(event.keys))) return sql`${JSON.stringify(events.map((event) => ({ keys: event.keys, payload: event.payload ?? null })))}::jsonb`;
  const built = events.map((event) => sql`jsonb_build_object('keys', ${Array.isArray(event.keys) ? sql`${JSON.stringify(event.keys)}::jsonb` : event.keys}, 'payload', ${JSON.stringify(event.payload ?? null)}::jsonb)`);
  return sql`jsonb_build_array(${sql.join(built)})`;
}

/**
 * The SELECT that records a write's events in the outbox (tessera_automation.outbox) when a webhook or an
 * event action flow listens to them, and nothing otherwise; its one column `recorded` counts the events
 * recorded. The caller runs it on the write's own connection (as a CTE the write's statement reads, or
 * alone), so the events commit or roll back with the write; the outbox relay then turns committed events
 * into their jobs (webhook deliveries, flow runs) in batches.
 *
 * The listener check and the insert are the function tessera_automation.record_item_events (migration
 * 20261126000038), whose plans PostgreSQL keeps per connection: a write nobody listens to costs a function
 * call, not the planning of the check on every write.
 */
export function writeJobs(collection: string, action: ItemAction, events: WriteEvent[], accountability: Accountability): RawBuilder<{ recorded: number }> {
  return sql<{ recorded: number }>`select tessera_automation.record_item_events(${collection}::text, ${action}::text, ${eventsJson(events)}, ${JSON.stringify(eventAccountability(accountability))}::jsonb) as recorded`;
}

/** Listeners of committed writes that recorded outbox events (the relay, to move them without waiting for its poll). */
const recordedListeners = new Set<() => void>();

/** Calls `listener` after each committed write that recorded outbox events; returns how to stop. */
export function onEventsRecorded(listener: () => void): () => void {
  recordedListeners.add(listener);
  return () => void recordedListeners.delete(listener);
}

/** A write that recorded outbox events has committed. */
export function eventsRecorded(): void {
  for (const listener of recordedListeners) listener();
}
