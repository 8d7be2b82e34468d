import type { Kysely } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';

/** The item writes that emit events. */
export const ITEM_ACTIONS = ['create', 'update', 'delete'] as const;
/** One of the item writes. */
export type ItemAction = (typeof ITEM_ACTIONS)[number];

/** A filter (before the write, inside its transaction): `items.create` or `<collection>.items.create`. */
export type FilterEvent = `items.${ItemAction}` | `${string}.items.${ItemAction}`;

/** An action (after commit): the item events plus sign-in and uploads. */
export type ActionEvent = FilterEvent | 'auth.login' | 'files.upload';

/** Who caused an event, as webhooks and flows see it (Directus: `{ user, role }` plus request facts). */
export interface EventAccountability {
  user: string | null;
  role: string | null;
  admin: boolean;
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
}

/** What an action handler receives (Directus' action meta): the event, the collection and keys written, the payload. */
export interface ActionPayload {
  event: ActionEvent;
  collection: string | null;
  keys: Array<string | number>;
  payload: Record<string, unknown> | null;
  accountability: EventAccountability | null;
}

/** What a filter handler is told besides the payload it may change. */
export interface FilterMeta {
  event: FilterEvent;
  collection: string;
  /** Keys of the items an update or delete touches; empty for a create. */
  keys: Array<string | number>;
  accountability: EventAccountability | null;
  /** The write's own transaction: work a filter does on it commits or rolls back with the write. */
  transaction?: WriteTransaction;
  /**
   * The write's transaction, begun on the first call when the write has not begun one yet (filters
   * registered with `deferTransaction` get only this). Undefined when the write has no transaction to join.
   */
  openTransaction?: () => Promise<WriteTransaction>;
}

/**
 * A write's transaction as a filter may join it: the connection, and the write's lists of collections
 * written and actions queued for after the commit (so nested writes announce themselves only if it commits).
 */
export interface WriteTransaction {
  db: Kysely<any>;
  written?: Set<string>;
  pendingActions?: Array<() => void>;
}

/** The two names an item write emits under: the generic one and the collection's own. */
export function itemEventNames(collection: string, action: ItemAction): [FilterEvent, FilterEvent] {
  return [`items.${action}`, `${collection}.items.${action}`];
}

/** The part of an Accountability that leaves the request (no token, no permissions). */
export function eventAccountability(accountability: Accountability | null | undefined): EventAccountability | null {
  if (!accountability) return null;
  return {
    user: accountability.user ?? null,
    role: accountability.role ?? null,
    admin: accountability.admin === true,
    ip: accountability.ip ?? null,
    userAgent: accountability.userAgent ?? null,
    origin: accountability.origin ?? null,
  };
}
