import { GraphQLBoolean, GraphQLID, GraphQLInt, GraphQLString, type GraphQLLeafType } from 'graphql';
import { sql } from 'kysely';
import { RESHAPED_ITEM } from '../query/compile-read.ts';
import type { Sql } from '../query/context.ts';
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

class Inexpressible extends Error {}

/** A SQL string literal. GraphQL names hold no backslash; text with one is refused rather than depend on standard_conforming_strings. */
function literal(text: string): string {
  if (text.includes('\\')) throw new Inexpressible();
  return `'${text.replace(/'/g, "''")}'`;
}

/** The JSON text of one leaf (`value` is its REST JSON), or null when it cannot match graphql-js exactly. */
function leafSql(field: Extract<Projection, { kind: 'leaf' }>, value: string): string | null {
  if (!field.sourceType) return null;
  if (field.type === GraphQLID) return ID_SOURCES.has(field.sourceType) ? `to_json(${value} #>> '{}')::text` : null;
  return VERBATIM.get(field.type)?.has(field.sourceType) ? `${value}::text` : null;
}


/** The item a reshaping expression reads: compile-read.ts names the item's REST JSON so. */
const ITEM = `"${RESHAPED_ITEM.split('.').join('"."')}"`;

/**
 * The SQL that rewrites an item's REST JSON into the JSON text graphql-js would print for `fields`: response
 * keys (aliases) in selection order, IDs as strings, `__typename` as a constant, relations shaped alike
 * (null for a missing many-to-one, `[]` for an empty one-to-many), no spaces between tokens (json_build_object
 * would print `"key" : value`). Null when a field's output needs Node.
 *
 * Built once per plan as plain SQL text: every name in it is a GraphQL name (`[_A-Za-z][_0-9A-Za-z]*`, which
 * the schema builder also requires of field names) inside a quoted literal, so nothing needs binding per request.
 */
export function graphqlShape(fields: Projection[]): Sql | null {
  const walk = (item: string, projections: Projection[], depth: number): string => {
    if (projections.length === 0) return `'{}'::text`;
    const parts = projections.map((field, index) => {
      const prefix = `${index === 0 ? '{' : ','}${JSON.stringify(field.key)}:`;
      if (field.kind === 'typename') return `${literal(prefix + JSON.stringify(field.value))}::text`;
      const value = `(${item} -> ${literal(field.source)}::text)`;
      let text: string | null;
      if (field.kind === 'leaf') {
        text = leafSql(field, value);
        if (!text) throw new Inexpressible();
      } else {
        const alias = `__g${depth}`;
        const own = `"${alias}"."o"`;
        const inner = walk(own, field.fields, depth + 1);
        text = field.list
          ? `case when json_typeof(${value}) = 'array' then (select '[' || coalesce(string_agg(case when json_typeof(${own}) = 'object' then ${inner} else 'null' end, ',' order by "${alias}"."n"), '') || ']' from json_array_elements(${value}) with ordinality as "${alias}"(o, n)) end`
          : `(select ${inner} from (select ${value} as o offset 0) as "${alias}" where json_typeof(${own}) = 'object')`;
      }
      return `${literal(prefix)}::text || coalesce(${text}, 'null')`;
    });
    return `(${parts.join(' || ')} || '}')`;
  };
  try {
    return sql.raw(walk(ITEM, fields, 1));
  } catch (error) {
    if (error instanceof Inexpressible) return null;
    throw error;
  }
}
