import type { Kysely } from 'kysely';
import { aliasField, columnField, systemFieldOverview } from './field-overview.ts';
import type { CollectionOverview, FieldOverview, RelationOverview, SchemaOverview } from './overview.ts';
import { readDatabaseFacts, type DatabaseFacts, type ForeignKeyFacts } from './read-database.ts';
import { readMetadata, type Metadata, type RelationRow } from './read-metadata.ts';
import { SYSTEM_COLLECTIONS, SYSTEM_RELATIONS, isSystemCollection } from './system/index.ts';

/** Prefix of the system tables; user collections may not use it. */
export const SYSTEM_PREFIX = 'tessera_';

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

/** A user collection from the facts and metadata read for it: a table, a folder (metadata only), or null (neither, or a table without a single-column primary key). */
function userCollectionOf(name: string, facts: DatabaseFacts, metadata: Metadata): CollectionOverview | null {
  const columns = facts.columns.get(name);
  if (columns) {
    const primary = facts.primaryKeys.get(name);
    // Tables without a single-column primary key cannot be addressed item by item, so they are left out.
    if (name.startsWith(SYSTEM_PREFIX) || !primary) return null;
    const metaRows = new Map((metadata.fields.get(name) ?? []).map((row) => [row.field, row]));
    const fields = columns.map((column) =>
      columnField(column, metaRows.get(column.column)?.meta ?? null, {
        primaryKey: column.column === primary,
        unique: facts.uniques.has(`${name}.${column.column}`),
        indexed: facts.indexed.has(`${name}.${column.column}`),
      }),
    );
    const columnNames = new Set(columns.map((column) => column.column));
    const aliases = [...metaRows.values()].filter((row) => !columnNames.has(row.field)).map((row) => aliasField(row.field, row.meta));
    return userCollection(name, primary, metadata.collections.get(name) ?? null, [...fields, ...aliases], true);
  }
  const meta = metadata.collections.get(name);
  if (!meta || isSystemCollection(name)) return null;
  return userCollection(name, '', meta, (metadata.fields.get(name) ?? []).map((row) => aliasField(row.field, row.meta)), false);
}

function relationOverview(row: Omit<RelationRow, 'id'> & { id: number | null }, foreignKey: ForeignKeyFacts | undefined): RelationOverview {
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
    schema: foreignKey ? { constraintName: foreignKey.constraintName, onDelete: foreignKey.onDelete, onUpdate: foreignKey.onUpdate } : null,
  };
}

/**
 * What the overview holds of one name, as read from the database: its collection (null when it is none),
 * the tessera_relations rows stored on it (many side) and its table's foreign keys by column.
 */
interface CollectionSource {
  overview: CollectionOverview | null;
  relations: RelationRow[];
  foreignKeys: Map<string, ForeignKeyFacts>;
}

/** The parts an overview was assembled from, kept with it (weakly) so a change re-reads only what it touched. */
interface OverviewSources {
  systemCollections: CollectionOverview[];
  systemRelations: RelationOverview[];
  byName: Map<string, CollectionSource>;
}

const SOURCES = new WeakMap<SchemaOverview, OverviewSources>();

/** The sources of each of `names` found in `facts` and `metadata` (read for those names, or for all). */
function collectionSources(names: Iterable<string>, facts: DatabaseFacts, metadata: Metadata): Map<string, CollectionSource | null> {
  const relationsOf = new Map<string, RelationRow[]>();
  for (const row of metadata.relations) {
    const list = relationsOf.get(row.many_collection);
    if (list) list.push(row);
    else relationsOf.set(row.many_collection, [row]);
  }
  const foreignKeysOf = new Map<string, Map<string, ForeignKeyFacts>>();
  for (const key of facts.foreignKeys.values()) {
    const map = foreignKeysOf.get(key.table);
    if (map) map.set(key.column, key);
    else foreignKeysOf.set(key.table, new Map([[key.column, key]]));
  }
  const result = new Map<string, CollectionSource | null>();
  for (const name of names) {
    const overview = userCollectionOf(name, facts, metadata);
    const relations = relationsOf.get(name) ?? [];
    // A name with neither a collection nor relation rows contributes nothing (its foreign keys relate no collection).
    result.set(name, overview || relations.length > 0 ? { overview, relations, foreignKeys: foreignKeysOf.get(name) ?? new Map() } : null);
  }
  return result;
}

const byName = (a: { collection: string }, b: { collection: string }) => (a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : 0);

/**
 * The overview from its parts: system collections, then user tables and folders by name; relations: the
 * system ones, the tessera_relations rows by id, then foreign keys made outside Tessera (default metadata).
 */
function assemble(sources: OverviewSources): SchemaOverview {
  const user = [...sources.byName.values()].map((source) => source.overview).filter((overview) => overview !== null);
  const tables = user.filter((collection) => collection.table).sort(byName);
  const folders = user.filter((collection) => !collection.table).sort(byName);
  // fromEntries defines own properties, so even a collection named `__proto__` is just a key.
  const collections = dictionary([...sources.systemCollections, ...tables, ...folders].map((collection) => [collection.collection, collection] as const));
  const rows = [...sources.byName.values()].flatMap((source) => source.relations).sort((a, b) => a.id - b.id);
  const relations = [...sources.systemRelations, ...rows.map((row) => relationOverview(row, sources.byName.get(row.many_collection)?.foreignKeys.get(row.many_field)))];
  const known = new Set(relations.map((relation) => `${relation.collection}.${relation.field}`));
  for (const collection of tables) {
    // Foreign keys made outside Tessera still relate items; they get default metadata.
    for (const fk of sources.byName.get(collection.collection)!.foreignKeys.values()) {
      if (known.has(`${fk.table}.${fk.column}`) || !collections[fk.foreignTable]) continue;
      relations.push({
        collection: fk.table,
        field: fk.column,
        relatedCollection: fk.foreignTable,
        meta: { id: null, oneField: null, oneCollectionField: null, oneAllowedCollections: null, junctionField: null, sortField: null, oneDeselectAction: 'nullify' },
        schema: { constraintName: fk.constraintName, onDelete: fk.onDelete, onUpdate: fk.onUpdate },
      });
    }
  }
  const overview = { collections, relations };
  SOURCES.set(overview, sources);
  return overview;
}

/**
 * Builds the schema overview: the system collections from server/schema/system/, the user collections
 * from the tables of the current schema merged with tessera_collections and tessera_fields, and the
 * relations from tessera_relations plus the foreign keys the database holds.
 */
export async function readSchemaOverview(db: Kysely<any>): Promise<SchemaOverview> {
  const [facts, metadata] = await Promise.all([readDatabaseFacts(db), readMetadata(db)]);
  const names = new Set([...facts.columns.keys(), ...metadata.collections.keys(), ...metadata.relations.map((row) => row.many_collection)]);
  const sources = new Map<string, CollectionSource>();
  for (const [name, source] of collectionSources(names, facts, metadata)) if (source) sources.set(name, source);
  return assemble({
    systemCollections: systemCollections(facts),
    systemRelations: SYSTEM_RELATIONS.map((relation) => relationOverview({ ...relation, id: null }, facts.foreignKeys.get(`${relation.many_collection}.${relation.many_field}`))),
    byName: sources,
  });
}

/**
 * `previous` with the collections `names` read again (their tables from pg_catalog, their metadata rows
 * and the relations stored on them), everything else reused as it was: what a change to a few collections
 * costs instead of a read of the whole schema. Null when `previous` was not built here (read it all then).
 * The system collections are not re-read: no change made through the API alters their tables. The result
 * is always a new object, even for no names: whatever is cached per overview starts over.
 */
export async function patchSchemaOverview(db: Kysely<any>, previous: SchemaOverview, names: Iterable<string>): Promise<SchemaOverview | null> {
  const sources = SOURCES.get(previous);
  if (!sources) return null;
  const list = [...new Set(names)];
  if (list.length === 0) return assemble(sources);
  const [facts, metadata] = await Promise.all([readDatabaseFacts(db, list), readMetadata(db, list)]);
  const updated = new Map(sources.byName);
  for (const [name, source] of collectionSources(list, facts, metadata)) {
    if (source) updated.set(name, source);
    else updated.delete(name);
  }
  return assemble({ ...sources, byName: updated });
}
