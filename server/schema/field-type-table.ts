import { GEOMETRY_DOMAINS, geojsonTypesOf, type GeometryType } from './geometry-types.ts';
import type { FieldType } from './types.ts';

/** GraphQL scalars a field's value travels as (server/graphql maps the names to its scalar objects). */
export type GraphQLScalarName = 'Int' | 'Float' | 'Boolean' | 'String' | 'JSON';
/** The GraphQL filter operator sets (Directus's mapping of storage types to filter input types). */
export type FilterOperatorSet = 'number' | 'bigInteger' | 'boolean' | 'date' | 'hash' | 'string';

/** What each place that handles values needs to know about one field type. */
export interface FieldTypeTraits {
  /** The PostgreSQL column type when it is fixed; null for sized types (string, decimal) and alias (no column). */
  column: string | null;
  /** The JSON Schema of the value REST reads and writes (OpenAPI): bigInteger and decimal as strings, dates as ISO strings, geometries as GeoJSON. */
  json: Readonly<Record<string, unknown>>;
  /** The GraphQL scalar of the value. */
  graphql: GraphQLScalarName;
  /** The GraphQL filter operators a field of the type takes. */
  filter: FilterOperatorSet;
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
  return { column: GEOMETRY_DOMAINS[type], json, graphql: 'JSON', filter: 'string' };
}

/**
 * The one table of field types: column type, REST/OpenAPI value schema, GraphQL scalar and filter
 * operators. A new field type is one row here, and the `satisfies` makes a missing row a type error.
 */
export const FIELD_TYPE_TABLE = {
  string: { column: null, json: text(), graphql: 'String', filter: 'string' },
  text: { column: 'text', json: text(), graphql: 'String', filter: 'string' },
  integer: { column: 'integer', json: { type: 'integer' }, graphql: 'Int', filter: 'number' },
  bigInteger: { column: 'bigint', json: text('int64'), graphql: 'String', filter: 'bigInteger' },
  float: { column: 'double precision', json: { type: 'number', format: 'float' }, graphql: 'Float', filter: 'number' },
  decimal: { column: null, json: text('decimal'), graphql: 'String', filter: 'number' },
  boolean: { column: 'boolean', json: { type: 'boolean' }, graphql: 'Boolean', filter: 'boolean' },
  date: { column: 'date', json: text('date'), graphql: 'String', filter: 'date' },
  time: { column: 'time', json: text('time'), graphql: 'String', filter: 'date' },
  dateTime: { column: 'timestamp', json: text('date-time'), graphql: 'String', filter: 'date' },
  timestamp: { column: 'timestamptz', json: text('date-time'), graphql: 'String', filter: 'date' },
  json: { column: 'jsonb', json: {}, graphql: 'JSON', filter: 'string' },
  csv: { column: 'text', json: { type: 'array', items: { type: 'string' } }, graphql: 'JSON', filter: 'string' },
  uuid: { column: 'uuid', json: text('uuid'), graphql: 'String', filter: 'string' },
  hash: { column: 'varchar(255)', json: text(), graphql: 'String', filter: 'hash' },
  alias: { column: null, json: {}, graphql: 'String', filter: 'string' },
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
