import type { Accountability } from '../auth/accountability.ts';
import type { EventBus } from './event-bus.ts';
import { eventAccountability, itemEventNames, type ItemAction, type WriteTransaction } from './event-names.ts';

/** Item actions a transaction has produced, emitted once it commits (and dropped if it rolls back). */
export type PendingActions = Array<() => void>;

/** Whether a filter listens to this write. */
export function hasItemFilters(events: EventBus, collection: string, action: ItemAction): boolean {
  return events.hasFilters(itemEventNames(collection, action));
}

/** Whether a filter of this write needs its transaction begun before the filters run (see EventBus.onFilter). */
export function itemFiltersNeedTransaction(events: EventBus, collection: string, action: ItemAction): boolean {
  return events.filtersNeedTransaction(itemEventNames(collection, action));
}

/**
 * Runs the `items.<action>` and `<collection>.items.<action>` filters on a payload about to be written.
 * `transaction` is the write's, or how to begin it when filters ask (only filters that defer it then run).
 */
export async function filterItemPayload(
  events: EventBus,
  collection: string,
  action: ItemAction,
  payload: Record<string, unknown>,
  keys: Array<string | number>,
  accountability: Accountability,
  transaction?: WriteTransaction | (() => Promise<WriteTransaction>),
): Promise<Record<string, unknown>> {
  const names = itemEventNames(collection, action);
  if (!events.hasFilters(names)) return payload;
  const deferred = typeof transaction === 'function';
  const meta = {
    collection,
    keys,
    accountability: eventAccountability(accountability),
    transaction: deferred ? undefined : transaction,
    openTransaction: deferred ? transaction : transaction && (async () => transaction),
  };
  const changed = await events.filter(names, payload, meta);
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
