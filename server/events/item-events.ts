import type { Accountability } from '../auth/accountability.ts';
import type { EventBus } from './event-bus.ts';
import { eventAccountability, itemEventNames, type ItemAction, type WriteTransaction } from './event-names.ts';

/** Item actions a transaction has produced, emitted once it commits (and dropped if it rolls back). */
export type PendingActions = Array<() => void>;

/** Whether a filter listens to this write (so the one-statement create must take the general path). */
export function hasItemFilters(events: EventBus, collection: string, action: ItemAction): boolean {
  return events.hasFilters(itemEventNames(collection, action));
}

/** Runs the `items.<action>` and `<collection>.items.<action>` filters on a payload about to be written. */
export async function filterItemPayload(
  events: EventBus,
  collection: string,
  action: ItemAction,
  payload: Record<string, unknown>,
  keys: Array<string | number>,
  accountability: Accountability,
  transaction?: WriteTransaction,
): Promise<Record<string, unknown>> {
  const names = itemEventNames(collection, action);
  if (!events.hasFilters(names)) return payload;
  const changed = await events.filter(names, payload, { collection, keys, accountability: eventAccountability(accountability), transaction });
  if (typeof changed !== 'object' || changed === null || Array.isArray(changed)) throw new TypeError(`A filter of ${names[0]} returned a non-object payload.`);
  return changed;
}

/**
 * Queues the `items.<action>` actions of one write for after the commit; without a pending list (a write
 * that is its own statement, already committed) they are emitted at once.
 */
export function queueItemActions(
  events: EventBus,
  pending: PendingActions | undefined,
  collection: string,
  action: ItemAction,
  keys: Array<string | number>,
  payload: Record<string, unknown> | null,
  accountability: Accountability,
): void {
  const emit = () => {
    const meta = { collection, keys, payload, accountability: eventAccountability(accountability) };
    for (const name of itemEventNames(collection, action)) events.emit(name, meta);
  };
  if (pending) pending.push(emit);
  else emit();
}

/** Emits the actions a committed transaction queued. */
export function flushItemActions(pending: PendingActions): void {
  for (const emit of pending.splice(0)) emit();
}
