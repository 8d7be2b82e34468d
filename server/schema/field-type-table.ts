import { GEOMETRY_DOMAINS, geojsonTypesOf, type GeometryType } from './geometry-types.ts';
import type { FieldType } from './types.ts';

/** GraphQL scalars a field's value travels as (server/graphql maps the names to its scalar objects). */
export type GraphQLScalarName = 'Int' | 'Float' | 'Boolean' | 'String' | 'JSON';
/** The GraphQL filter operator sets (Directus's mapping of storage types to filter input types). */
export type FilterOperatorSet = 'number' | 'bigInteger' | 'boolean' | 'date' | 'hash' | 'string';

/**
 * What a field's values are, which decides how every place that reads or writes one treats it: filter casts
 * (query/cast-value.ts), payload checks and column values (services/items), defaults (schema/column-types.ts,
 * services/schema/column-sql.ts, snapshot/normalize.ts), form fields and CSV cells (files/). Each of those
 * keeps a `Record<ValueKind, …>`, so a new kind is a type error until every one handles it.
 */
export type ValueKind =
  | 'string'
  | 'text'
  | 'hash'
  | 'integer'
  | 'bigInteger'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'time'
  | 'dateTime'
  | 'uuid'
  | 'csv'
  | 'json'
  | 'geometry'
  | 'alias';

/**
 * How PostgreSQL writes a column's value in API form (query/output-value.ts): as it is, as text (bigint and
 * numeric: no float rounding), as ISO 8601 UTC, a csv text split into an array, GeoJSON, json.
 */
export type OutputKind = 'plain' | 'text' | 'utc' | 'list' | 'geojson' | 'json';

/** The size a column type takes: a varchar length, or numeric precision and scale. */
export type ColumnSizeKind = 'length' | 'precision';

/** How a primary key of the type gets its value: an identity (auto-increment), gen_random_uuid(), or only from the client. */
export type PrimaryKeyKind = 'identity' | 'uuid' | 'given';

/** What each place that handles values needs to know about one field type. */
export interface FieldTypeTraits {
  /** The PostgreSQL column type when it is fixed; null for sized types (string, decimal) and alias (no column). */
  column: string | null;
  /** The size the column type takes (varchar length, numeric precision and scale), or null. */
  size: ColumnSizeKind | null;
  /** The JSON Schema of the value REST reads and writes (OpenAPI): bigInteger and decimal as strings, dates as ISO strings, geometries as GeoJSON. */
  json: Readonly<Record<string, unknown>>;
  /** The GraphQL scalar of the value. */
  graphql: GraphQLScalarName;
  /** The GraphQL filter operators a field of the type takes. */
  filter: FilterOperatorSet;
  /** What its values are (see ValueKind). */
  value: ValueKind;
  /** How a read returns its column's value. */
  output: OutputKind;
  /** The SQL keyword a `now()` default of the type stands for; null when the type has no clock default. */
  now: string | null;
  /** How a primary key of the type gets its value; null when the type cannot be a primary key. */
  primaryKey: PrimaryKeyKind | null;
}

const text = (format?: string) => ({ type: 'string', ...(format ? { format } : {}) });

function geometry(type: GeometryType): FieldTypeTraits {
  const types = geojsonTypesOf(type);
  const json = {
    type: 'object',
    description: `A GeoJSON geometry (RFC 7946): ${types.join(', ')}.`,
    required: ['type'],
    properties: { type: { type: 'string', enum: [...types] }, coordinates: { type: 'array' }, ...(types.includes('GeometryCollection') ? { geometries: { type: 'array', items: { type: 'object' } } } : {}) },
  };
  return { column: GEOMETRY_DOMAINS[type], size: null, json, graphql: 'JSON', filter: 'string', value: 'geometry', output: 'geojson', now: null, primaryKey: null };
}

/**
 * The one table of field types: column type and size, REST/OpenAPI value schema, GraphQL scalar and filter
 * operators, value kind, output form, clock default and primary-key kind. A new field type is one row here, and the
 * `satisfies` makes a missing row, or a missing trait in a row, a type error. The admin keeps the same rows
 * for what it needs (admin/src/content/field-type-table.ts; tests/unit/admin/field-type-table.test.ts
 * holds the two to the same type names, value kinds and sizes).
 */
export const FIELD_TYPE_TABLE = {
  string: { column: null, size: 'length', json: text(), graphql: 'String', filter: 'string', value: 'string', output: 'plain', now: null, primaryKey: 'given' },
  text: { column: 'text', size: null, json: text(), graphql: 'String', filter: 'string', value: 'text', output: 'plain', now: null, primaryKey: null },
  integer: { column: 'integer', size: null, json: { type: 'integer' }, graphql: 'Int', filter: 'number', value: 'integer', output: 'plain', now: null, primaryKey: 'identity' },
  bigInteger: { column: 'bigint', size: null, json: text('int64'), graphql: 'String', filter: 'bigInteger', value: 'bigInteger', output: 'text', now: null, primaryKey: 'identity' },
  float: { column: 'double precision', size: null, json: { type: 'number', format: 'float' }, graphql: 'Float', filter: 'number', value: 'float', output: 'plain', now: null, primaryKey: null },
  decimal: { column: null, size: 'precision', json: text('decimal'), graphql: 'String', filter: 'number', value: 'decimal', output: 'text', now: null, primaryKey: null },
  boolean: { column: 'boolean', size: null, json: { type: 'boolean' }, graphql: 'Boolean', filter: 'boolean', value: 'boolean', output: 'plain', now: null, primaryKey: null },
  date: { column: 'date', size: null, json: text('date'), graphql: 'String', filter: 'date', value: 'date', output: 'plain', now: 'CURRENT_DATE', primaryKey: null },
  time: { column: 'time', size: null, json: text('time'), graphql: 'String', filter: 'date', value: 'time', output: 'plain', now: 'LOCALTIME', primaryKey: null },
  dateTime: { column: 'timestamp', size: null, json: text('date-time'), graphql: 'String', filter: 'date', value: 'dateTime', output: 'plain', now: 'LOCALTIMESTAMP', primaryKey: null },
  timestamp: { column: 'timestamptz', size: null, json: text('date-time'), graphql: 'String', filter: 'date', value: 'dateTime', output: 'utc', now: 'CURRENT_TIMESTAMP', primaryKey: null },
  json: { column: 'jsonb', size: null, json: {}, graphql: 'JSON', filter: 'string', value: 'json', output: 'json', now: null, primaryKey: null },
  csv: { column: 'text', size: null, json: { type: 'array', items: { type: 'string' } }, graphql: 'JSON', filter: 'string', value: 'csv', output: 'list', now: null, primaryKey: null },
  uuid: { column: 'uuid', size: null, json: text('uuid'), graphql: 'String', filter: 'string', value: 'uuid', output: 'plain', now: null, primaryKey: 'uuid' },
  hash: { column: 'varchar(255)', size: null, json: text(), graphql: 'String', filter: 'hash', value: 'hash', output: 'plain', now: null, primaryKey: null },
  alias: { column: null, size: null, json: {}, graphql: 'String', filter: 'string', value: 'alias', output: 'plain', now: null, primaryKey: null },
  geometry: geometry('geometry'),
  'geometry.Point': geometry('geometry.Point'),
  'geometry.LineString': geometry('geometry.LineString'),
  'geometry.Polygon': geometry('geometry.Polygon'),
  'geometry.MultiPoint': geometry('geometry.MultiPoint'),
  'geometry.MultiLineString': geometry('geometry.MultiLineString'),
  'geometry.MultiPolygon': geometry('geometry.MultiPolygon'),
} as const satisfies Record<FieldType, FieldTypeTraits>;

/** The traits of a field type (an unknown type reads as text, as an unmapped column does). */
export function fieldTypeTraits(type: string): FieldTypeTraits {
  return Object.hasOwn(FIELD_TYPE_TABLE, type) ? FIELD_TYPE_TABLE[type as FieldType] : FIELD_TYPE_TABLE.text;
}
