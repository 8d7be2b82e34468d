import type { ControlledTransaction, Kysely } from 'kysely';
import { translateDatabaseFault } from './database-faults.ts';

/**
 * A transaction begun only when something asks for it. A create whose filters only change the payload
 * never asks, and stays one statement on the pool; a filter that joins the write (an extension's service
 * given the hook's `database`) begins it, and the write then finishes inside it.
 */
export class DeferredTransaction {
  readonly #db: Kysely<any>;
  #begun: Promise<ControlledTransaction<any>> | null = null;

  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  /** Whether something has begun the transaction. */
  get begun(): boolean {
    return this.#begun !== null;
  }

  /** The transaction, begun on the first call (later calls get the same one). */
  readonly open = (): Promise<Kysely<any>> => (this.#begun ??= this.#db.startTransaction().execute());

  /** Commits a begun transaction; a conflict becomes TRANSACTION_CONFLICT as runTransaction's last attempt does. */
  async commit(): Promise<void> {
    if (!this.#begun) return;
    try {
      await (await this.#begun).commit().execute();
    } catch (error) {
      throw translateDatabaseFault(error) ?? error;
    }
  }

  /** Rolls a begun transaction back (nothing to do when none began); never throws over the error being handled. */
  async rollback(): Promise<void> {
    if (!this.#begun) return;
    try {
      await (await this.#begun).rollback().execute();
    } catch {
      // The connection failed: PostgreSQL ends the transaction with it.
    }
  }
}
