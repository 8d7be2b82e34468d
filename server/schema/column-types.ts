import { fieldTypeTraits, type ValueKind } from './field-type-table.ts';
import { geometryTypeOfDomain, isGeometryType } from './geometry-types.ts';
import { geometryTypeOfPostgisColumn } from './postgis.ts';
import type { FieldSpecial, FieldType } from './types.ts';

/** Field type of each PostgreSQL type (information_schema `udt_name`) Tessera knows. */
const TYPES_BY_UDT: Readonly<Record<string, FieldType>> = {
  varchar: 'string',
  bpchar: 'string',
  text: 'text',
  int2: 'integer',
  int4: 'integer',
  int8: 'bigInteger',
  float4: 'float',
  float8: 'float',
  numeric: 'decimal',
  bool: 'boolean',
  date: 'date',
  time: 'time',
  timetz: 'time',
  timestamp: 'dateTime',
  timestamptz: 'timestamp',
  json: 'json',
  jsonb: 'json',
  uuid: 'uuid',
};

/** Column types whose values a text search can match. */
const SEARCHABLE_TYPES: ReadonlySet<FieldType> = new Set(['string', 'text', 'csv', 'uuid']);

/** Column types a `cast-csv` or `hash` special can reinterpret. */
const TEXT_UDTS: ReadonlySet<string> = new Set(['varchar', 'bpchar', 'text']);

/** Specials a field of this type must carry so that reading the schema gives the type back. */
export const TYPE_SPECIALS: Readonly<Partial<Record<FieldType, FieldSpecial>>> = {
  csv: 'cast-csv',
  hash: 'hash',
  json: 'cast-json',
  boolean: 'cast-boolean',
};

/**
 * The field type of a column: from its PostgreSQL type, unless a special, its domain (GeoJSON geometry) or
 * its PostGIS type (`geometry(Point,4326)`) says otherwise.
 */
export function fieldTypeOf(udt: string, special: readonly string[], domain?: string | null, postgisType?: string | null): FieldType {
  const geometry = geometryTypeOfDomain(domain);
  if (geometry) return geometry;
  if (udt === 'geometry') return geometryTypeOfPostgisColumn(postgisType ?? 'geometry');
  if (TEXT_UDTS.has(udt)) {
    if (special.includes('cast-csv')) return 'csv';
    if (special.includes('hash')) return 'hash';
  }
  // Types without a mapping (inet, bytea, arrays …) read as plain text.
  return TYPES_BY_UDT[udt] ?? 'text';
}

/** True when `?search=` should look at a field of this type and column type. */
export function isSearchable(type: FieldType, udt: string | null, concealed: boolean): boolean {
  return !concealed && SEARCHABLE_TYPES.has(type) && (udt === null || udt in TYPES_BY_UDT);
}

/** A column default as the schema overview keeps it. */
export interface ParsedDefault {
  value: unknown;
  /** True when the database fills the value itself (sequence, identity, function). */
  generated: boolean;
}

const STRING_LITERAL = /^'((?:[^']|'')*)'(?:::[\w\s."[\]()]+)*$/;
const CLOCK_DEFAULT = /^(now\(\)|current_timestamp|current_date|current_time|localtimestamp|localtime)(\(\d\))?(::[\w\s]+)?$/i;
const GEOJSON_DEFAULT = /^st_geomfromgeojson\('((?:[^']|'')*)'::text\)$/i;
const NUMBER_LITERAL = /^\(?(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\)?(?:::[\w\s."[\]()]+)?$/i;

const asNumber = (text: string): unknown => (Number.isFinite(Number(text)) ? Number(text) : text);
const asText = (text: string): unknown => text;

function asJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The value the text of a literal default stands for, per value kind (field-type-table.ts); bigints past 2^53 stay text. */
const LITERALS = {
  integer: asNumber,
  float: asNumber,
  bigInteger: (text) => (Number.isSafeInteger(Number(text)) ? Number(text) : text),
  boolean: (text) => ['true', 't'].includes(text.toLowerCase()),
  json: asJson,
  string: asText,
  text: asText,
  hash: asText,
  decimal: asText,
  date: asText,
  time: asText,
  dateTime: asText,
  uuid: asText,
  csv: asText,
  geometry: asText,
  alias: asText,
} satisfies Record<ValueKind, (text: string) => unknown>;

/** Turns the text of a literal default into the value a field of `type` holds. */
function castLiteral(text: string, type: FieldType): unknown {
  return LITERALS[fieldTypeTraits(type).value](text);
}

/**
 * Reads `information_schema.columns.column_default`: literals become values (`'draft'::character varying`
 * → `"draft"`, `42` → 42), while sequences, identities and functions (`nextval(…)`, `gen_random_uuid()`,
 * `now()`, CURRENT_TIMESTAMP, any other expression) mark the field as generated; clock defaults of date and
 * time fields also read as `CURRENT_TIMESTAMP`, the value the API takes to set one.
 */
export function parseColumnDefault(raw: string | null, type: FieldType, identity: boolean): ParsedDefault {
  if (identity) return { value: null, generated: true };
  if (raw === null) return { value: null, generated: false };
  const text = raw.trim();
  if (/^null(::.*)?$/i.test(text)) return { value: null, generated: false };
  if (/^(true|false)$/i.test(text)) return { value: text.toLowerCase() === 'true', generated: false };
  const quoted = STRING_LITERAL.exec(text);
  if (quoted) return { value: castLiteral(quoted[1]!.replaceAll("''", "'"), type), generated: false };
  const number = NUMBER_LITERAL.exec(text);
  if (number) return { value: castLiteral(number[1]!, type), generated: false };
  // The clock defaults a field can be given through the API read back as the value it was given, so
  // snapshots reproduce them and a NOT NULL field with one is not required on create.
  if (fieldTypeTraits(type).now !== null && CLOCK_DEFAULT.test(text)) return { value: 'CURRENT_TIMESTAMP', generated: true };
  // A PostGIS column's default is the GeoJSON it was given (server/services/schema/column-sql.ts).
  const geojson = GEOJSON_DEFAULT.exec(text);
  if (geojson && isGeometryType(type)) return { value: asJson(geojson[1]!.replaceAll("''", "'")), generated: false };
  // nextval(…), gen_random_uuid(), now(), CURRENT_TIMESTAMP and every other expression: the database decides.
  return { value: null, generated: true };
}
