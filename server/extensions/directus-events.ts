import { ITEM_ACTIONS, type ItemAction } from '../events/event-names.ts';

/** Tessera's system collections are Directus's with another prefix (tessera_users ↔ directus_users). */
const TESSERA_PREFIX = 'tessera_';
const DIRECTUS_PREFIX = 'directus_';

/** A collection name as a Directus extension knows it. */
export function directusCollection(collection: string | null): string | null {
  return collection?.startsWith(TESSERA_PREFIX) ? DIRECTUS_PREFIX + collection.slice(TESSERA_PREFIX.length) : collection;
}

/** A collection name a Directus extension used, as Tessera knows it. */
export function tesseraCollection(collection: string): string {
  return collection.startsWith(DIRECTUS_PREFIX) ? TESSERA_PREFIX + collection.slice(DIRECTUS_PREFIX.length) : collection;
}

/** Whether the collection is one of Tessera's own. */
export function isSystemCollection(collection: string | null): boolean {
  return collection?.startsWith(TESSERA_PREFIX) === true;
}

/** How a Directus event name maps onto Tessera's event spine. */
export interface EventTarget {
  /** The name to listen to on the spine. */
  name: string;
  /** Set for item writes. */
  action: ItemAction | null;
  /** `items.*` in Directus fires for user collections only; Tessera's fires for its own collections too. */
  userCollectionsOnly: boolean;
}

/**
 * Directus names item events `items.create` (user collections), `<collection>.items.create`, and for its own
 * collections `<name>.create` (`users.create` for directus_users); Tessera names every item write
 * `items.create` and `<collection>.items.create`. Other names (`auth.login`, `files.upload`, an extension's
 * own events) are the same on both sides.
 */
export function eventTarget(event: string): EventTarget {
  const parts = event.split('.');
  const last = parts.at(-1) as ItemAction;
  if (!(ITEM_ACTIONS as readonly string[]).includes(last)) return { name: event, action: null, userCollectionsOnly: false };
  if (parts.length === 2 && parts[0] === 'items') return { name: event, action: last, userCollectionsOnly: true };
  if (parts.length === 3 && parts[1] === 'items') return { name: `${tesseraCollection(parts[0]!)}.items.${last}`, action: last, userCollectionsOnly: false };
  if (parts.length === 2) return { name: `${TESSERA_PREFIX}${parts[0]}.items.${last}`, action: last, userCollectionsOnly: false };
  return { name: event, action: null, userCollectionsOnly: false };
}
