import { fieldTypeOf, isSearchable, parseColumnDefault } from './column-types.ts';
import type { FieldOverview } from './overview.ts';
import type { ColumnFacts } from './read-database.ts';
import type { FieldMeta, FieldSpecial, FieldType, SystemField } from './types.ts';

/** information_schema `data_type` of each field type, for system fields whose column was not read. */
export const DATA_TYPES: Readonly<Record<FieldType, string | null>> = {
  string: 'character varying',
  text: 'text',
  integer: 'integer',
  bigInteger: 'bigint',
  float: 'double precision',
  decimal: 'numeric',
  boolean: 'boolean',
  date: 'date',
  time: 'time without time zone',
  dateTime: 'timestamp without time zone',
  timestamp: 'timestamp with time zone',
  json: 'jsonb',
  csv: 'text',
  uuid: 'uuid',
  hash: 'character varying',
  alias: null,
  'geometry': 'jsonb',
  'geometry.Point': 'jsonb',
  'geometry.LineString': 'jsonb',
  'geometry.Polygon': 'jsonb',
  'geometry.MultiPoint': 'jsonb',
  'geometry.MultiLineString': 'jsonb',
  'geometry.MultiPolygon': 'jsonb',
};

/** Storage facts of a column that depend on its type. */
function columnFacts(column: ColumnFacts, type: FieldType): Pick<FieldOverview, 'dbType' | 'defaultValue' | 'generated' | 'maxLength' | 'precision' | 'scale'> {
  const { value, generated } = parseColumnDefault(column.default, type, column.identity);
  const numeric = column.udt === 'numeric';
  return {
    // A PostGIS column is USER-DEFINED to information_schema; `geometry` says which storage it is.
    dbType: column.udt === 'geometry' ? 'geometry' : column.dataType,
    defaultValue: value,
    generated,
    maxLength: column.maxLength,
    precision: numeric ? column.precision : null,
    scale: numeric ? column.scale : null,
  };
}

/** A field backed by a column of a user table, with its tessera_fields metadata when there is any. */
export function columnField(column: ColumnFacts, meta: FieldMeta | null, keys: { primaryKey: boolean; unique: boolean; indexed: boolean }): FieldOverview {
  const special: FieldSpecial[] = meta?.special ?? [];
  const type = fieldTypeOf(column.udt, special, column.domain, column.postgisType);
  const concealed = special.includes('conceal') || type === 'hash';
  return {
    field: column.column,
    type,
    ...columnFacts(column, type),
    alias: false,
    primaryKey: keys.primaryKey,
    nullable: column.nullable,
    unique: keys.primaryKey || keys.unique,
    indexed: keys.indexed,
    special,
    concealed,
    searchable: isSearchable(type, column.udt, concealed),
    meta,
  };
}

/** A field that exists only in tessera_fields (o2m, m2m, m2a, groups, presentation). */
export function aliasField(field: string, meta: FieldMeta): FieldOverview {
  return {
    field,
    type: 'alias',
    dbType: null,
    alias: true,
    primaryKey: false,
    nullable: true,
    defaultValue: null,
    generated: false,
    maxLength: null,
    precision: null,
    scale: null,
    unique: false,
    indexed: false,
    special: meta.special ?? [],
    concealed: false,
    searchable: false,
    meta,
  };
}

/**
 * A system field: type, specials and metadata from server/schema/system/; storage facts (defaults,
 * lengths, uniqueness) from its column when the database was read, else derived from the type.
 */
export function systemFieldOverview(field: SystemField, column: ColumnFacts | undefined, unique: boolean, indexed = false): FieldOverview {
  const alias = field.type === 'alias';
  const storage = column
    ? columnFacts(column, field.type)
    : { dbType: DATA_TYPES[field.type], defaultValue: null, generated: field.primaryKey && field.type !== 'string', maxLength: null, precision: null, scale: null };
  return {
    field: field.field,
    type: field.type,
    ...storage,
    alias,
    primaryKey: field.primaryKey,
    nullable: column ? column.nullable : field.nullable,
    unique: field.primaryKey || unique,
    indexed,
    special: field.meta.special ?? [],
    concealed: field.concealed,
    searchable: !alias && isSearchable(field.type, column?.udt ?? null, field.concealed),
    meta: field.meta,
  };
}
