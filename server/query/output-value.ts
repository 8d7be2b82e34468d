import { sql } from 'kysely';
import { fieldTypeTraits, type OutputKind } from '../schema/field-type-table.ts';
import type { FieldOverview } from '../schema/overview.ts';
import { CONCEALED_VALUE } from './constants.ts';
import type { Sql } from './context.ts';
import { isConcealed } from './policy.ts';

const PAIRS_PER_CALL = 50;
const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

const asJson = (field: FieldOverview, ref: Sql): Sql => (field.dbType === 'json' || field.dbType === 'jsonb' ? ref : sql`${ref}::json`);

/** The API form of each output kind (server/schema/field-type-table.ts). */
const OUTPUTS = {
  plain: (_field, ref) => ref,
  text: (_field, ref) => sql`${ref}::text`,
  utc: (field, ref) =>
    field.dbType === 'timestamp without time zone' ? sql`to_char(${ref}, ${sql.raw(ISO_UTC)})` : sql`to_char(${ref} at time zone 'UTC', ${sql.raw(ISO_UTC)})`,
  list: (field, ref) => (field.dbType === 'ARRAY' ? ref : sql`string_to_array(${ref}, ',')`),
  // A PostGIS column reads as the GeoJSON it was given: 17 decimals keep every double as written.
  geojson: (field, ref) => (field.dbType === 'geometry' ? sql`ST_AsGeoJSON(${ref}, 17)::json` : asJson(field, ref)),
  json: asJson,
} satisfies Record<OutputKind, (field: FieldOverview, ref: Sql) => Sql>;

/**
 * A column's value in API form, built by PostgreSQL: concealed values masked, bigint and decimal as strings
 * (no float rounding), timestamps as ISO 8601 UTC, csv split into an array, json as json. Dates, times,
 * numbers and booleans already have their API form in JSON.
 */
export function outputValue(field: FieldOverview, ref: Sql): Sql {
  if (isConcealed(field)) return sql`case when ${ref} is null then null else ${CONCEALED_VALUE}::text end`;
  return OUTPUTS[fieldTypeTraits(field.type).output](field, ref);
}

/** `json_build_object` over key/value pairs; past PostgreSQL's 100-argument limit, chunks merged as jsonb. */
export function jsonObject(pairs: ReadonlyArray<readonly [string, Sql]>): Sql {
  const chunks: Sql[] = [];
  for (let start = 0; start < pairs.length; start += PAIRS_PER_CALL) {
    const chunk = pairs.slice(start, start + PAIRS_PER_CALL).map(([key, value]) => sql`${key}::text, ${value}`);
    chunks.push(sql`json_build_object(${sql.join(chunk)})`);
  }
  if (chunks.length === 0) return sql`json_build_object()`;
  if (chunks.length === 1) return chunks[0] as Sql;
  return sql`(${sql.join(
    chunks.map((chunk) => sql`${chunk}::jsonb`),
    sql` || `,
  )})::json`;
}
