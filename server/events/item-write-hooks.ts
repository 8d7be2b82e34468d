import type { RawBuilder } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import type { EventBus } from './event-bus.ts';
import type { ItemAction } from './event-names.ts';
import { queueItemActions, type PendingActions } from './item-events.ts';
import { writeJobs } from './write-jobs.ts';

/** One item a write changed: its key and the payload the caller sent. */
interface WrittenItem {
  key: string | number;
  delta: Record<string, unknown> | null;
}

/**
 * What every ItemsService write does besides writing: queue the `items.*` actions for after the commit,
 * and return the SELECT that records it in the automation outbox (for its webhook deliveries and action flow
 * runs; writeJobs), for the caller to run on the write's own connection (in the activity statement, so the
 * hook costs no extra round trip). Creates announce each
 * item on its own (with its payload), updates and deletes the whole batch (Directus' shape).
 */
export function itemWriteHooks(events: EventBus, pending: PendingActions | undefined, collection: string, action: ItemAction, items: WrittenItem[], accountability: Accountability): RawBuilder<{ recorded: number }> | null {
  if (items.length === 0) return null;
  const batches = action === 'create' ? items.map((item) => ({ keys: [item.key], payload: item.delta })) : [{ keys: items.map((item) => item.key), payload: action === 'update' ? items[0]!.delta : null }];
  for (const { keys, payload } of batches) queueItemActions(events, pending, collection, action, keys, payload, accountability);
  return writeJobs(
    collection,
    action,
    batches.map(({ keys, payload }) => ({ keys, payload: action === 'delete' ? keys : payload })),
    accountability,
  );
}
