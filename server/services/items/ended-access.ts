import { endUserAccess, roleUsersLosingAccess, type AccessStamps } from '../../auth/access-stamps.ts';
import type { ItemKey } from './item-keys.ts';
import type { ItemsContext } from './items-service.ts';

/**
 * Keeps stamps of users whose access a write ended, to publish when its transaction commits. A service
 * joined to a transaction it does not own (a filter flow's) has no collector: it publishes at once, which
 * at worst refuses tokens of a write that then rolls back (their bearers refresh).
 */
export function noteEndedAccess(context: ItemsContext, stamps: AccessStamps): void {
  if (!context.endedAccess) {
    context.accessStamps?.publish(stamps);
    return;
  }
  for (const [user, stamp] of stamps) context.endedAccess.set(user, Math.max(context.endedAccess.get(user) ?? 0, stamp));
}

/**
 * Read before deleting `keys` of `collection`, run after: a deleted user's sessions go with the row and
 * their access tokens stop; a deleted role's users lose their access (their tokens carry its flags).
 */
export async function accessEndedByDelete(context: ItemsContext, collection: string, keys: ItemKey[]): Promise<() => Promise<void>> {
  if (collection === 'tessera_users') return async () => noteEndedAccess(context, new Map(keys.map((key) => [String(key), Infinity])));
  if (collection !== 'tessera_roles') return async () => {};
  const users = await roleUsersLosingAccess(context.db, keys, null);
  return async () => {
    if (users.length > 0) noteEndedAccess(context, await endUserAccess(context.db, users));
  };
}
