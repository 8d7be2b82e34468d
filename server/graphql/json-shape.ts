import { GraphQLBoolean, GraphQLID, GraphQLInt, GraphQLString, type GraphQLLeafType } from 'graphql';
import type { TextShape } from '../query/compile-text-shape.ts';
import { GraphQLJSON } from './scalars.ts';
import type { Projection } from './fast-read.ts';

/** How the schema builder marks a column's GraphQL field: the Tessera field type its REST JSON comes from. */
export interface LeafExtension {
  type: string;
}

/**
 * Field types whose REST JSON value (server/query/output-value.ts) is what graphql-js prints for the
 * field's scalar, byte for byte. Float is absent on purpose: PostgreSQL and JavaScript print some doubles
 * differently (`1e-05` / `0.00001`, `-0` / `0`), so documents with Float fields keep the object path.
 */
const VERBATIM = new Map<GraphQLLeafType, ReadonlySet<string>>([
  // Strings in REST: text columns, dates and times, and bigint/decimal/timestamps PostgreSQL turns into text.
  [GraphQLString, new Set(['string', 'text', 'uuid', 'hash', 'date', 'time', 'dateTime', 'timestamp', 'bigInteger', 'decimal'])],
  [GraphQLInt, new Set(['integer'])],
  [GraphQLBoolean, new Set(['boolean'])],
  // JSON is passed as PostgreSQL prints it: the same value, though jsonb puts spaces after `:` and `,`.
  [GraphQLJSON, new Set(['json', 'csv', 'geometry', 'geometry.Point', 'geometry.LineString', 'geometry.Polygon', 'geometry.MultiPoint', 'geometry.MultiLineString', 'geometry.MultiPolygon'])],
]);

/** Key types graphql-js's ID prints as a JSON string: integers (REST: numbers) and values REST gives as strings. */
const ID_SOURCES: ReadonlySet<string> = new Set(['integer', 'bigInteger', 'decimal', 'uuid', 'string', 'text', 'hash']);

/** Whether PostgreSQL prints the leaf as graphql-js does, and how: as its JSON, or (ID) as a JSON string. */
function leafShape(field: Extract<Projection, { kind: 'leaf' }>): { asString: boolean } | null {
  if (!field.sourceType) return null;
  if (field.type === GraphQLID) return ID_SOURCES.has(field.sourceType) ? { asString: true } : null;
  return VERBATIM.get(field.type)?.has(field.sourceType) ? { asString: false } : null;
}

/**
 * The shape PostgreSQL builds the GraphQL JSON text of an item in (server/query/compile-text-shape.ts):
 * response keys (aliases) in selection order, IDs as strings, `__typename` as a constant, relations shaped
 * alike (null for a missing many-to-one, `[]` for an empty one-to-many), no spaces between tokens. Null when
 * a field's output needs Node.
 */
export function graphqlShape(fields: readonly Projection[]): TextShape | null {
  const shape: TextShape[number][] = [];
  for (const field of fields) {
    if (field.kind === 'typename') {
      shape.push({ key: field.key, constant: field.value });
      continue;
    }
    if (field.kind === 'leaf') {
      const leaf = leafShape(field);
      if (!leaf) return null;
      shape.push(leaf.asString ? { key: field.key, source: field.source, asString: true } : { key: field.key, source: field.source });
      continue;
    }
    const nested = graphqlShape(field.fields);
    if (!nested) return null;
    shape.push({ key: field.key, source: field.source, fields: nested });
  }
  return shape;
}
