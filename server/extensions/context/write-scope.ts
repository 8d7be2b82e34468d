import type { AppContext } from '../../app-context.ts';
import { statementsRecorded } from '../../cache/statement-recorder.ts';
import { runTransaction } from '../../database/transaction-retry.ts';
import type { WriteTransaction } from '../../events/event-names.ts';
import { flushItemActions, type PendingActions } from '../../events/item-events.ts';

/** Writes to these change what callers may do: the schema cache (and with it the permission cache) is dropped after them. */
const ACCESS_COLLECTIONS = ['tessera_permissions', 'tessera_roles'];

/**
 * Runs several service calls as one write (Directus's upsertMany, a facade method made of several calls):
 * one transaction, item actions emitted only once it commits, caches dropped after it, as the items
 * service does for a single call.
 */
export async function inWriteTransaction<T>(app: AppContext, work: (transaction: Required<WriteTransaction>) => Promise<T>): Promise<T> {
  const written = new Set<string>();
  const pendingActions: PendingActions = [];
  const result = await runTransaction(app.database.kysely(), (db) => {
    // A retried transaction starts over.
    written.clear();
    pendingActions.length = 0;
    return work({ db, written, pendingActions });
  });
  flushItemActions(pendingActions);
  // Roles and permissions change no collection: the overview is kept, the permissions derived from it are cleared.
  if (ACCESS_COLLECTIONS.some((collection) => written.has(collection))) app.schema.invalidate([]);
  if (!statementsRecorded()) await app.responseCache.purgeWritten(written);
  return result;
}
