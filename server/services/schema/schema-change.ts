import type { Kysely } from 'kysely';
import { withDatabaseErrors } from '../../database/translate-db-error.ts';
import type { SchemaOverview } from '../../schema/overview.ts';
import { readSchemaOverview } from '../../schema/read-schema.ts';
import type { SchemaCache } from '../../schema/schema-cache.ts';
import type { ServiceContext } from '../service-context.ts';

/**
 * The schema as the service's database handle sees it: the cached overview, or, inside a caller's
 * transaction, one read through that transaction (it sees the transaction's own uncommitted changes,
 * and takes no second connection).
 */
export function currentSchema(context: ServiceContext, cache: SchemaCache): Promise<SchemaOverview> {
  return context.db.isTransaction ? readSchemaOverview(context.db) : cache.get();
}

/**
 * Runs DDL and metadata writes in ONE transaction (PostgreSQL's DDL is transactional, so a failure
 * leaves neither a table nor its metadata behind), then invalidates the schema cache. Inside a caller's
 * transaction it joins that one. `work` must use only the handle it is given: on the embedded database a
 * second connection would wait for this transaction forever.
 */
export async function runSchemaChange<T>(context: ServiceContext, cache: SchemaCache, work: (trx: Kysely<any>) => Promise<T>): Promise<T> {
  const { db } = context;
  try {
    return await withDatabaseErrors(() => (db.isTransaction ? work(db) : db.transaction().execute(work)));
  } finally {
    cache.invalidate();
  }
}
