import { GraphQLBoolean, GraphQLID, GraphQLInt, GraphQLString, type GraphQLLeafType } from 'graphql';
import { sql } from 'kysely';
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

/** The JSON text of one leaf (`value` is its REST JSON), or null when it cannot match graphql-js exactly. */
function leafSql(field: Extract<Projection, { kind: 'leaf' }>, value: Sql): Sql | null {
  if (!field.sourceType) return null;
  if (field.type === GraphQLID) return ID_SOURCES.has(field.sourceType) ? sql`to_json(${value} #>> '{}')::text` : null;
  return VERBATIM.get(field.type)?.has(field.sourceType) ? sql`${value}::text` : null;
}

class Inexpressible extends Error {}

/**
 * The SQL that rewrites an item's REST JSON into the JSON text graphql-js would print for `fields`: response
 * keys (aliases) in selection order, IDs as strings, `__typename` as a constant, relations shaped alike
 * (null for a missing many-to-one, `[]` for an empty one-to-many), no spaces between tokens (json_build_object
 * would print `"key" : value`). Null when a field's output needs Node.
 */
export function graphqlShape(fields: Projection[]): ((item: Sql) => Sql) | null {
  const walk = (item: Sql, projections: Projection[], depth: number): Sql => {
    if (projections.length === 0) return sql`'{}'::text`;
    const parts = projections.map((field, index) => {
      const prefix = `${index === 0 ? '{' : ','}${JSON.stringify(field.key)}:`;
      if (field.kind === 'typename') return sql`${prefix + JSON.stringify(field.value)}::text`;
      const value = sql`(${item} -> ${field.source}::text)`;
      let text: Sql | null;
      if (field.kind === 'leaf') {
        text = leafSql(field, value);
        if (!text) throw new Inexpressible();
      } else {
        const alias = `__g${depth}`;
        const own = sql.ref(`${alias}.o`);
        const inner = walk(own, field.fields, depth + 1);
        text = field.list
          ? sql`case when json_typeof(${value}) = 'array' then (select '[' || coalesce(string_agg(case when json_typeof(${own}) = 'object' then ${inner} else 'null' end, ',' order by ${sql.ref(`${alias}.n`)}), '') || ']' from json_array_elements(${value}) with ordinality as ${sql.id(alias)}(o, n)) end`
          : sql`(select ${inner} from (select ${value} as o) as ${sql.id(alias)} where json_typeof(${own}) = 'object')`;
      }
      return sql`${prefix}::text || coalesce(${text}, 'null')`;
    });
    return sql`(${sql.join(parts, sql` || `)} || '}')`;
  };
  try {
    walk(sql.ref('__probe.o'), fields, 1);
  } catch (error) {
    if (error instanceof Inexpressible) return null;
    throw error;
  }
  return (item) => walk(item, fields, 1);
}
