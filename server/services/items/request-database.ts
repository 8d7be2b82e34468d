import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';

const scope = new AsyncLocalStorage<Kysely<any>>();

/**
 * Runs `work` with `db` as the database of the request being served. Write hooks that sit below the
 * items service (password policy on tessera_users) read project settings through it, because the
 * service hands them only the collection, the payload and the caller.
 */
export function withRequestDatabase<T>(db: Kysely<any>, work: () => Promise<T>): Promise<T> {
  return scope.run(db, work);
}

/** The database of the current HTTP request, or null outside one (CLI, bootstrap). */
export function requestDatabase(): Kysely<any> | null {
  return scope.getStore() ?? null;
}
