import type { Kysely, Transaction } from 'kysely';
import { classifyDatabaseFault, translateDatabaseFault } from './database-faults.ts';

/** Attempts for a transaction that deadlocks or fails to serialize, the first one included. */
export const TRANSACTION_ATTEMPTS = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` in a transaction (or in the one `db` already is) and runs it again, after a random pause,
 * when PostgreSQL aborts it as a deadlock victim or a serialization failure: nothing of it was committed,
 * so a rerun is safe. After the last attempt the conflict becomes TRANSACTION_CONFLICT (409). Nested
 * calls do not retry: only the outermost transaction can be rerun.
 */
export async function runTransaction<T>(db: Kysely<any>, work: (trx: Transaction<any>) => Promise<T>, attempts = TRANSACTION_ATTEMPTS): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<any>);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (classifyDatabaseFault(error) !== 'conflict') throw error;
      if (attempt >= attempts) throw translateDatabaseFault(error)!;
      // Full jitter on a doubling window: colliding writers spread out instead of meeting again.
      await sleep(Math.random() * 20 * 2 ** attempt);
    }
  }
}
