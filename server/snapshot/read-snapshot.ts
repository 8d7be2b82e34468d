import type { Kysely } from 'kysely';
import { fieldTypeTraits } from '../schema/field-type-table.ts';
import type { CollectionOverview, FieldOverview, RelationOverview, SchemaOverview } from '../schema/overview.ts';
import { splitCsv } from '../schema/read-metadata.ts';
import { readSchemaOverview } from '../schema/read-schema.ts';
import { CONFIG_TABLES, SETTINGS_COLUMNS, rowKey, type ConfigTable } from './config-tables.ts';
import { normalizeDocument } from './normalize.ts';
import { operationIdsAsKeys } from './operation-keys.ts';
import { sortRows } from './sort.ts';
import {
  SNAPSHOT_VENDOR,
  SNAPSHOT_VERSION,
  type ConfigSection,
  type SnapshotCollection,
  type SnapshotDocument,
  type SnapshotField,
  type SnapshotRelation,
  type SnapshotRow,
} from './types.ts';

/** What the database holds, as a snapshot, plus the database ids apply needs to find rows again. */
export interface DatabaseState {
  document: SnapshotDocument & Required<Pick<SnapshotDocument, ConfigSection | 'settings'>>;
  schema: SchemaOverview;
  /** Database id of each configuration row, by section and row key. */
  ids: Map<ConfigSection, Map<string, unknown>>;
  /** Role ids by role name. */
  roleIds: Map<string, string>;
}

function collectionEntry(collection: CollectionOverview): SnapshotCollection {
  let meta: Record<string, unknown> | null = null;
  if (collection.meta) {
    const { collection: _name, ...rest } = collection.meta;
    meta = rest;
  }
  return { collection: collection.collection, meta, schema: collection.table ? { name: collection.collection } : null };
}

function fieldEntry(collection: CollectionOverview, field: FieldOverview): SnapshotField {
  const traits = fieldTypeTraits(field.type);
  return {
    collection: collection.collection,
    field: field.field,
    type: field.type,
    meta: field.meta ? { ...field.meta } : null,
    schema: field.alias
      ? null
      : {
          default_value: field.defaultValue ?? null,
          is_nullable: field.nullable,
          is_unique: field.unique,
          is_indexed: field.indexed,
          is_primary_key: field.primaryKey,
          has_auto_increment: field.primaryKey && field.generated && traits.primaryKey === 'identity',
          // Sizes only where the type has one: information_schema reports 32 bits for every integer.
          max_length: traits.size === 'length' ? field.maxLength : null,
          numeric_precision: traits.size === 'precision' ? field.precision : null,
          numeric_scale: traits.size === 'precision' ? field.scale : null,
        },
  };
}

function relationEntry(relation: RelationOverview): SnapshotRelation {
  const { meta } = relation;
  return {
    collection: relation.collection,
    field: relation.field,
    related_collection: relation.relatedCollection,
    meta:
      meta.id === null
        ? null
        : {
            one_field: meta.oneField,
            one_collection_field: meta.oneCollectionField,
            one_allowed_collections: meta.oneAllowedCollections,
            junction_field: meta.junctionField,
            sort_field: meta.sortField,
            one_deselect_action: meta.oneDeselectAction,
          },
    schema: relation.schema ? { on_delete: relation.schema.onDelete } : null,
  };
}

/** The schema sections of a snapshot: user collections, their fields and relations, sorted by name. */
export function schemaSections(schema: SchemaOverview): Pick<SnapshotDocument, 'collections' | 'fields' | 'relations'> {
  const user = Object.values(schema.collections).filter((collection) => !collection.system);
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  user.sort((a, b) => byName(a.collection, b.collection));
  return {
    collections: user.map(collectionEntry),
    fields: user.flatMap((collection) =>
      Object.values(collection.fields)
        .sort((a, b) => byName(a.field, b.field))
        .map((field) => fieldEntry(collection, field)),
    ),
    relations: schema.relations
      .filter((relation) => !schema.collections[relation.collection]?.system)
      .map(relationEntry)
      .sort((a, b) => byName(a.collection, b.collection) || byName(a.field, b.field)),
  };
}

/** A database row as a snapshot row: only the kept columns, lists split, role ids as names. */
function toSnapshotRow(table: ConfigTable, row: Record<string, unknown>, roleNames: Map<string, string>): SnapshotRow {
  const result: SnapshotRow = {};
  for (const column of table.columns) {
    let value = row[column] ?? null;
    if (table.csv?.includes(column)) value = splitCsv(value);
    if (table.roleColumns?.includes(column) && value !== null) value = roleNames.get(String(value)) ?? null;
    result[column] = value;
  }
  return result;
}

async function readConfigTable(db: Kysely<any>, table: ConfigTable, roleNames: Map<string, string>): Promise<{ rows: SnapshotRow[]; ids: Map<string, unknown> }> {
  if (table.read) {
    const read = await table.read(db);
    return { rows: sortRows(table, read.map((entry) => entry.row)), ids: new Map(read.map((entry) => [rowKey(table, entry.row), entry.id])) };
  }
  let query = db.selectFrom(table.table).selectAll();
  if (table.projectRowsOnly) query = query.where('user', 'is', null);
  const records = await query.execute();
  const ids = new Map<string, unknown>();
  const rows = records.map((record) => {
    const row = toSnapshotRow(table, record, roleNames);
    ids.set(rowKey(table, row), record.id);
    return row;
  });
  return { rows: sortRows(table, rows), ids };
}

/** Reads the whole snapshot of a database (secrets in clear: mask them before they leave the server). */
export async function readDatabaseState(db: Kysely<any>, schema?: SchemaOverview): Promise<DatabaseState> {
  const overview = schema ?? (await readSchemaOverview(db));
  const roles = await db.selectFrom('tessera_roles').select(['id', 'name']).execute();
  const roleNames = new Map(roles.map((role) => [String(role.id), String(role.name)]));
  const document = { version: SNAPSHOT_VERSION, vendor: SNAPSHOT_VENDOR, ...schemaSections(overview) } as DatabaseState['document'];
  const ids = new Map<ConfigSection, Map<string, unknown>>();
  for (const table of CONFIG_TABLES) {
    const { rows, ids: tableIds } = await readConfigTable(db, table, roleNames);
    document[table.section] = rows;
    ids.set(table.section, tableIds);
  }
  const stored = await db.selectFrom('tessera_operations').select(['id', 'key']).execute();
  Object.assign(document, operationIdsAsKeys(document.flows, document.operations, stored));
  const settings = await db.selectFrom('tessera_settings').select([...SETTINGS_COLUMNS]).executeTakeFirst();
  document.settings = settings ? { ...settings } : null;
  return {
    document: normalizeDocument(document) as DatabaseState['document'],
    schema: overview,
    ids,
    roleIds: new Map(roles.map((role) => [String(role.name), String(role.id)])),
  };
}
