import type { Kysely } from 'kysely';
import { aliasField, columnField, systemFieldOverview } from './field-overview.ts';
import type { CollectionOverview, FieldOverview, RelationOverview, SchemaOverview } from './overview.ts';
import { readDatabaseFacts, type DatabaseFacts } from './read-database.ts';
import { readMetadata, type Metadata, type RelationRow } from './read-metadata.ts';
import { SYSTEM_COLLECTIONS, SYSTEM_RELATIONS, isSystemCollection } from './system/index.ts';

/** Prefix of the system tables; user collections may not use it. */
export const SYSTEM_PREFIX = 'tessera_';

function foreignKeySchema(facts: DatabaseFacts, table: string, column: string): RelationOverview['schema'] {
  const key = facts.foreignKeys.get(`${table}.${column}`);
  return key ? { constraintName: key.constraintName, onDelete: key.onDelete, onUpdate: key.onUpdate } : null;
}

/**
 * A name → value map without a prototype: `fields.constructor` or `collections.toString` is undefined, so
 * the many `map[name]` lookups on input names (payloads, queries, routes) never find Object.prototype's members.
 */
function dictionary<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, Object.fromEntries(entries));
}

function systemCollections(facts: DatabaseFacts): CollectionOverview[] {
  return SYSTEM_COLLECTIONS.map((system) => {
    const columns = new Map((facts.columns.get(system.collection) ?? []).map((column) => [column.column, column]));
    const fields = system.fields.map((field) =>
      systemFieldOverview(field, columns.get(field.field), facts.uniques.has(`${system.collection}.${field.field}`), facts.indexed.has(`${system.collection}.${field.field}`)),
    );
    const { meta } = system;
    return {
      collection: system.collection,
      primary: system.primary,
      table: true,
      system: true,
      singleton: system.singleton,
      sortField: meta.sort_field,
      accountability: meta.accountability,
      archive: meta.archive_field ? { field: meta.archive_field, value: meta.archive_value, unarchiveValue: meta.unarchive_value } : null,
      meta: null,
      fields: dictionary(fields.map((field) => [field.field, field] as const)),
    };
  });
}

/** A user collection from its table (or none: a folder) and its tessera_collections row. */
function userCollection(name: string, primary: string, meta: Record<string, any> | null, fields: FieldOverview[], table: boolean): CollectionOverview {
  return {
    collection: name,
    primary,
    table,
    system: false,
    singleton: Boolean(meta?.singleton),
    sortField: meta?.sort_field ?? null,
    accountability: meta ? (meta.accountability ?? null) : 'all',
    archive: meta?.archive_field
      ? { field: meta.archive_field, value: meta.archive_value ?? null, unarchiveValue: meta.unarchive_value ?? null }
      : null,
    meta,
    fields: dictionary(fields.map((field) => [field.field, field] as const)),
  };
}

function userCollections(facts: DatabaseFacts, metadata: Metadata): CollectionOverview[] {
  const result: CollectionOverview[] = [];
  for (const [table, columns] of facts.columns) {
    const primary = facts.primaryKeys.get(table);
    // Tables without a single-column primary key cannot be addressed item by item, so they are left out.
    if (table.startsWith(SYSTEM_PREFIX) || !primary) continue;
    const metaRows = new Map((metadata.fields.get(table) ?? []).map((row) => [row.field, row]));
    const fields = columns.map((column) =>
      columnField(column, metaRows.get(column.column)?.meta ?? null, {
        primaryKey: column.column === primary,
        unique: facts.uniques.has(`${table}.${column.column}`),
        indexed: facts.indexed.has(`${table}.${column.column}`),
      }),
    );
    const columnNames = new Set(columns.map((column) => column.column));
    const aliases = [...metaRows.values()].filter((row) => !columnNames.has(row.field)).map((row) => aliasField(row.field, row.meta));
    result.push(userCollection(table, primary, metadata.collections.get(table) ?? null, [...fields, ...aliases], true));
  }
  for (const [name, meta] of metadata.collections) {
    if (facts.columns.has(name) || isSystemCollection(name)) continue;
    const aliases = (metadata.fields.get(name) ?? []).map((row) => aliasField(row.field, row.meta));
    result.push(userCollection(name, '', meta, aliases, false));
  }
  return result;
}

function relationOverview(row: Omit<RelationRow, 'id'> & { id: number | null }, facts: DatabaseFacts): RelationOverview {
  return {
    collection: row.many_collection,
    field: row.many_field,
    relatedCollection: row.one_collection,
    meta: {
      id: row.id,
      oneField: row.one_field,
      oneCollectionField: row.one_collection_field,
      oneAllowedCollections: row.one_allowed_collections,
      junctionField: row.junction_field,
      sortField: row.sort_field,
      oneDeselectAction: row.one_deselect_action,
    },
    schema: foreignKeySchema(facts, row.many_collection, row.many_field),
  };
}

function relations(facts: DatabaseFacts, metadata: Metadata, collections: Record<string, CollectionOverview>): RelationOverview[] {
  const result = [
    ...SYSTEM_RELATIONS.map((relation) => relationOverview({ ...relation, id: null }, facts)),
    ...metadata.relations.map((row) => relationOverview(row, facts)),
  ];
  const known = new Set(result.map((relation) => `${relation.collection}.${relation.field}`));
  // Foreign keys made outside Tessera still relate items; they get default metadata.
  for (const [key, fk] of facts.foreignKeys) {
    if (known.has(key) || collections[fk.table]?.system !== false || !collections[fk.foreignTable]) continue;
    result.push({
      collection: fk.table,
      field: fk.column,
      relatedCollection: fk.foreignTable,
      meta: { id: null, oneField: null, oneCollectionField: null, oneAllowedCollections: null, junctionField: null, sortField: null, oneDeselectAction: 'nullify' },
      schema: { constraintName: fk.constraintName, onDelete: fk.onDelete, onUpdate: fk.onUpdate },
    });
  }
  return result;
}

/**
 * Builds the schema overview: the system collections from server/schema/system/, the user collections
 * from the tables of the current schema merged with tessera_collections and tessera_fields, and the
 * relations from tessera_relations plus the foreign keys the database holds.
 */
export async function readSchemaOverview(db: Kysely<any>): Promise<SchemaOverview> {
  const [facts, metadata] = await Promise.all([readDatabaseFacts(db), readMetadata(db)]);
  // fromEntries defines own properties, so even a collection named `__proto__` is just a key.
  const collections: Record<string, CollectionOverview> = dictionary(
    [...systemCollections(facts), ...userCollections(facts, metadata)].map((collection) => [collection.collection, collection] as const),
  );
  return { collections, relations: relations(facts, metadata, collections) };
}
