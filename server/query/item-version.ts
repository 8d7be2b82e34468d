import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { CollectionOverview } from '../schema/overview.ts';
import type { Sql } from './context.ts';

const derivedKeys = new Map<string, string>();

/**
 * The key item versions are hashed with, derived from SECRET. Keyed, so a version cannot be recomputed by a
 * caller who can read every field but one and wants to guess that one (docs/collaboration.md, "No lost updates").
 */
export function itemVersionKey(secret: string | null): string {
  const source = secret ?? '';
  let key = derivedKeys.get(source);
  if (key === undefined) {
    key = createHmac('sha256', source).update('tessera item version').digest('hex');
    derivedKeys.clear();
    derivedKeys.set(source, key);
  }
  return key;
}

/** The stored columns a version covers, in a fixed order (every read and write builds the same row). */
function versionedColumns(collection: CollectionOverview): string[] {
  return Object.values(collection.fields)
    .filter((field) => !field.alias)
    .map((field) => field.field)
    .sort();
}

/**
 * An item's version: md5 of the key and the text of its stored columns, computed by PostgreSQL, so any write
 * changes it (through Tessera or not, with or without a date_updated field) and an UPDATE's WHERE can compare
 * it in the same statement as the write. `table` qualifies the columns (a read's alias); without it they are
 * the statement's own table (UPDATE, DELETE).
 */
export function itemVersionSql(collection: CollectionOverview, key: string, table?: string): Sql {
  const columns = versionedColumns(collection).map((field) => (table ? sql.id(table, field) : sql.id(field)));
  return sql`md5(${key}::text || row(${sql.join(columns)})::text)`;
}
