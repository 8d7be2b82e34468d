import { COLLECTION_META_COLUMNS } from '../schema/read-metadata.ts';
import { field as defineField } from '../schema/system/define.ts';
import { fieldTypeTraits, type ValueKind } from '../schema/field-type-table.ts';
import type { FieldType } from '../schema/types.ts';
import { withTypeSpecials } from '../services/schema/field-payload.ts';
import { CONFIG_TABLES, SETTINGS_COLUMNS } from './config-tables.ts';
import { sortDocument } from './layout.ts';
import type { SnapshotCollection, SnapshotColumn, SnapshotDocument, SnapshotField, SnapshotRelation, SnapshotRow } from './types.ts';

/** What a tessera_collections row holds for a column that is not set. */
const COLLECTION_META_DEFAULTS: Readonly<Record<string, unknown>> = {
  hidden: false,
  singleton: false,
  archive_app_filter: true,
  accountability: 'all',
  collapse: 'open',
  versioning: false,
};

/** Fills `base` with `defaults` where `base` has no key (an explicit null is kept). */
function fill(defaults: Record<string, unknown>, base: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const result: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(base ?? {})) if (value !== undefined) result[key] = value;
  return result;
}

/** Collection settings with every column present (null meta: the defaults, as a new collection gets). */
export function normalizeCollection(collection: SnapshotCollection): SnapshotCollection {
  const defaults = Object.fromEntries(COLLECTION_META_COLUMNS.filter((column) => column !== 'collection').map((column) => [column, COLLECTION_META_DEFAULTS[column] ?? null]));
  return { collection: collection.collection, meta: fill(defaults, collection.meta), schema: collection.schema ? { name: collection.collection } : null };
}

/** The metadata a new field of this type gets (the fields service's defaults). */
export function defaultFieldMeta(name: string, type: string): Record<string, unknown> {
  const meta = defineField(name, type as FieldType).meta;
  meta.special = withTypeSpecials(meta.special, type as FieldType);
  return { ...meta };
}

const CLOCK_DEFAULT = /^(now\(\)|current_timestamp|current_date|current_time|localtimestamp|localtime)$/i;

/** Strips what does not change a decimal's value: `1.50` and `1.5` are the same default. */
function canonicalDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const isNumeric = (value: unknown): boolean => (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));
const asIs = (value: unknown): unknown => value;
const asNumber = (value: unknown): unknown => (isNumeric(value) ? Number(value) : value);

/** A default of each value kind (server/schema/field-type-table.ts) as the database reads it back. */
const CANONICAL_DEFAULTS = {
  integer: asNumber,
  float: asNumber,
  bigInteger: (value) => (isNumeric(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value),
  decimal: (value) => (isNumeric(value) ? canonicalDecimal(String(value)) : value),
  csv: (value) => (Array.isArray(value) ? value.join(',') : value),
  string: asIs,
  text: asIs,
  hash: asIs,
  boolean: asIs,
  date: asIs,
  time: asIs,
  dateTime: asIs,
  uuid: asIs,
  json: asIs,
  geometry: asIs,
  alias: asIs,
} satisfies Record<ValueKind, (value: unknown) => unknown>;

/**
 * A default in the form the database reads it back in, so a file may spell it any way the API accepts:
 * numbers as numbers (a decimal as its text), clock defaults as CURRENT_TIMESTAMP, a csv list joined.
 */
function canonicalDefault(type: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const traits = fieldTypeTraits(type);
  if (traits.now !== null && typeof value === 'string' && CLOCK_DEFAULT.test(value.trim())) return 'CURRENT_TIMESTAMP';
  return CANONICAL_DEFAULTS[traits.value](value);
}

/** Column settings with every key present; sizes kept only where the type has one (string 255, decimal 10,5 by default). */
function normalizeColumn(type: string, column: Partial<SnapshotColumn>): SnapshotColumn {
  const { size, primaryKey } = fieldTypeTraits(type);
  return {
    default_value: canonicalDefault(type, column.default_value),
    is_nullable: column.is_primary_key ? false : (column.is_nullable ?? true),
    is_unique: column.is_primary_key ? true : (column.is_unique ?? false),
    is_indexed: column.is_primary_key ? false : (column.is_indexed ?? null),
    is_primary_key: column.is_primary_key ?? false,
    has_auto_increment: column.has_auto_increment ?? (Boolean(column.is_primary_key) && primaryKey === 'identity'),
    max_length: size === 'length' ? (column.max_length ?? 255) : null,
    numeric_precision: size === 'precision' ? (column.numeric_precision ?? 10) : null,
    numeric_scale: size === 'precision' ? (column.numeric_scale ?? 5) : null,
  };
}

/** A field with complete metadata and column settings. */
export function normalizeField(field: SnapshotField): SnapshotField {
  const meta = fill(defaultFieldMeta(field.field, field.type), field.meta);
  // A csv field whose file drops `cast-csv` is a text field, which is what the database reads back (issue 31).
  const special = meta.special as readonly string[] | string | null;
  const type = field.type === 'csv' && !(special ?? []).includes('cast-csv') ? 'text' : field.type;
  return {
    collection: field.collection,
    field: field.field,
    type,
    meta,
    schema: type === 'alias' ? null : normalizeColumn(type, field.schema ?? {}),
  };
}

/** A relation with complete metadata. */
export function normalizeRelation(relation: SnapshotRelation): SnapshotRelation {
  const defaults = { one_field: null, one_collection_field: null, one_allowed_collections: null, junction_field: null, sort_field: null, one_deselect_action: 'nullify' };
  return {
    collection: relation.collection,
    field: relation.field,
    related_collection: relation.related_collection ?? null,
    meta: fill(defaults, relation.meta),
    schema: relation.schema === null || relation.related_collection === null ? null : { on_delete: relation.schema?.on_delete ?? 'SET NULL' },
  };
}

/**
 * A document in its one canonical form: every key present (defaults where a file leaves one out) and
 * every section sorted. Database snapshots and loaded files both pass through here, so comparing them
 * compares meaning, not spelling.
 */
export function normalizeDocument(document: SnapshotDocument): SnapshotDocument {
  const result: SnapshotDocument = {
    ...document,
    collections: document.collections.map(normalizeCollection),
    fields: document.fields.map(normalizeField),
    relations: document.relations.map(normalizeRelation),
  };
  for (const table of CONFIG_TABLES) {
    const rows = document[table.section];
    if (!rows) continue;
    const defaults = Object.fromEntries(table.columns.map((column) => [column, table.defaults?.[column] ?? null]));
    result[table.section] = rows.map((row) => {
      const filled = fill(defaults, row);
      return Object.fromEntries(table.columns.map((column) => [column, filled[column]])) as SnapshotRow;
    });
  }
  if (document.settings) result.settings = Object.fromEntries(SETTINGS_COLUMNS.filter((column) => column in document.settings!).map((column) => [column, document.settings![column]]));
  return sortDocument(result);
}
