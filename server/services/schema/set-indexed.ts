import { setColumnIndexedConcurrently, setColumnIndexedInTransaction } from '../../indexes/managed-indexes.ts';
import type { SchemaCache } from '../../schema/schema-cache.ts';
import type { ServiceContext } from '../service-context.ts';
import { noteSchemaChange } from './schema-change.ts';

/**
 * Applies `schema.is_indexed` of a column. Outside a transaction the index is built or dropped
 * CONCURRENTLY after the column change committed (writes go on meanwhile); inside a caller's transaction
 * (PATCH of several fields, snapshot apply) plainly, so it commits or rolls back with the rest.
 */
export async function setIndexed(context: ServiceContext, cache: SchemaCache, collection: string, field: string, indexed: boolean): Promise<void> {
  const { db } = context;
  try {
    if (db.isTransaction) await setColumnIndexedInTransaction(db, collection, field, indexed);
    else await setColumnIndexedConcurrently(db, collection, field, indexed);
  } finally {
    if (!db.isTransaction || !noteSchemaChange(db, [collection])) cache.invalidate([collection]);
  }
}
