import type { Kysely } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import { enqueueWebhookDeliveries } from '../webhooks/enqueue-deliveries.ts';
import type { ItemAction } from './event-names.ts';
import { queueItemActions, type PendingActions } from './item-events.ts';

/** One item a write changed: its key and the payload the caller sent. */
interface WrittenItem {
  key: string | number;
  delta: Record<string, unknown> | null;
}

/**
 * What every ItemsService write does besides writing, inside its transaction: enqueue the webhook
 * deliveries on the same connection and queue the `items.*` actions for after the commit. Creates
 * announce each item on its own (with its payload), updates and deletes the whole batch (Directus' shape).
 */
export async function afterItemWrite(db: Kysely<any>, pending: PendingActions | undefined, collection: string, action: ItemAction, items: WrittenItem[], accountability: Accountability): Promise<void> {
  if (items.length === 0) return;
  const batches = action === 'create' ? items.map((item) => ({ keys: [item.key], payload: item.delta })) : [{ keys: items.map((item) => item.key), payload: action === 'update' ? items[0]!.delta : null }];
  for (const { keys, payload } of batches) {
    const sent = action === 'delete' ? keys : payload;
    await enqueueWebhookDeliveries(db, collection, action, keys, sent, accountability);
    queueItemActions(pending, collection, action, keys, action === 'delete' ? null : payload, accountability);
  }
}
