import { geometryProblem } from '../../schema/geojson.ts';
import { geojsonTypesOf, isGeometryType, type GeometryType } from '../../schema/geometry-types.ts';
import { fieldTypeTraits, type ValueKind } from '../../schema/field-type-table.ts';
import { postgisTypeName, SRID, type GeometryStorage } from '../../schema/postgis.ts';
import { sql, type RawBuilder } from 'kysely';
import { InvalidPayloadError } from '../../errors.ts';
import type { FieldType } from '../../schema/types.ts';
import type { ColumnInput, NewField } from './field-payload.ts';


/** The sizes a column type takes: varchar length, numeric precision and scale. */
export interface ColumnSize {
  maxLength?: number | null;
  precision?: number | null;
  scale?: number | null;
}

/**
 * The PostgreSQL type of a field: string varchar(max_length, 255), decimal numeric(p, s; 10, 5), a geometry
 * `geometry(<Type>, 4326)` where PostGIS stores them, the rest fixed.
 */
export function columnTypeSql(type: FieldType, size: ColumnSize, field: string, storage: GeometryStorage = 'geojson'): RawBuilder<unknown> {
  if (storage === 'postgis' && isGeometryType(type)) return sql.raw(`geometry(${postgisTypeName(type)}, ${SRID})`);
  const traits = fieldTypeTraits(type);
  if (traits.size === 'length') return sql`varchar(${sql.lit(size.maxLength ?? 255)})`;
  if (traits.size === 'precision') {
    const precision = size.precision ?? 10;
    const scale = size.scale ?? 5;
    if (scale > precision) throw new InvalidPayloadError(`numeric_scale of field "${field}" can't exceed its numeric_precision (${precision}).`, { field });
    return sql`numeric(${sql.lit(precision)}, ${sql.lit(scale)})`;
  }
  if (!traits.column) throw new InvalidPayloadError(`Field "${field}" of type ${type} has no column.`, { field });
  return sql.raw(traits.column);
}

function invalidDefault(field: string, expected: string): InvalidPayloadError {
  return new InvalidPayloadError(`Default value of field "${field}" must be ${expected}.`, { field });
}

/** What a default is checked and written against: the field's name, type and geometry storage. */
interface DefaultTarget {
  field: string;
  type: FieldType;
  storage: GeometryStorage;
}

function numberDefault(value: unknown, { field }: DefaultTarget): RawBuilder<unknown> {
  if (typeof value === 'number' ? !Number.isFinite(value) : typeof value !== 'string' || value.trim() === '' || !Number.isFinite(Number(value))) {
    throw invalidDefault(field, 'a number');
  }
  return sql.lit(Number(value));
}

function textDefault(value: unknown, { field }: DefaultTarget): RawBuilder<unknown> {
  if (typeof value !== 'string' && typeof value !== 'number') throw invalidDefault(field, 'a string');
  return sql.lit(String(value));
}

/** A default of each value kind (server/schema/field-type-table.ts) as an escaped literal. */
const DEFAULTS = {
  integer: (value, target) => {
    const literal = numberDefault(value, target);
    if (!Number.isSafeInteger(Number(value))) throw invalidDefault(target.field, 'an integer');
    return literal;
  },
  float: numberDefault,
  bigInteger: (value, { field }) => {
    if (!/^-?\d+$/.test(String(value)) || typeof value === 'boolean') throw invalidDefault(field, 'an integer');
    return sql`${sql.lit(String(value))}::bigint`;
  },
  decimal: (value, { field }) => {
    if (!/^-?\d+(\.\d+)?$/.test(String(value)) || typeof value === 'boolean') throw invalidDefault(field, 'a decimal number');
    return sql`${sql.lit(String(value))}::numeric`;
  },
  boolean: (value, { field }) => {
    if (typeof value !== 'boolean') throw invalidDefault(field, 'true or false');
    return sql.lit(value);
  },
  json: (value) => sql`${sql.lit(JSON.stringify(value))}::jsonb`,
  geometry: (value, { field, type, storage }) => {
    const problem = geometryProblem(value, geojsonTypesOf(type as GeometryType), { twoDimensional: storage === 'postgis', wgs84Only: storage === 'postgis' });
    if (problem) throw invalidDefault(field, `a GeoJSON geometry (the value ${problem})`);
    // A function call, not a geometry literal, so that the default reads back as GeoJSON.
    if (storage === 'postgis') return sql`ST_GeomFromGeoJSON(${sql.lit(JSON.stringify(value))}::text)`;
    return sql`${sql.lit(JSON.stringify(value))}::jsonb`;
  },
  csv: (value, { field }) => {
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return sql.lit(value.join(','));
    if (typeof value !== 'string') throw invalidDefault(field, 'a list of strings');
    return sql.lit(value);
  },
  string: textDefault,
  text: textDefault,
  hash: textDefault,
  date: textDefault,
  time: textDefault,
  dateTime: textDefault,
  uuid: textDefault,
  alias: textDefault,
} satisfies Record<ValueKind, (value: unknown, target: DefaultTarget) => RawBuilder<unknown>>;

/**
 * A default as SQL. DDL takes no bind parameters, so the value is checked against the type here and
 * written as an escaped literal (`sql.lit`); `now()` / CURRENT_TIMESTAMP on date and time fields means
 * "when the row is created" (the type's `now` keyword).
 */
export function defaultSql(type: FieldType, value: unknown, field: string, storage: GeometryStorage = 'geojson'): RawBuilder<unknown> {
  const traits = fieldTypeTraits(type);
  if (traits.now && typeof value === 'string' && /^(now\(\)|current_timestamp|current_date|current_time|localtimestamp|localtime)$/i.test(value.trim())) return sql.raw(traits.now);
  return DEFAULTS[traits.value](value, { field, type, storage });
}

/** Column clauses of a primary key: identity for integers, gen_random_uuid() for uuids. */
function primaryKeySql(field: NewField, column: ColumnInput): RawBuilder<unknown> {
  const kind = fieldTypeTraits(field.type).primaryKey;
  if (!kind) {
    throw new InvalidPayloadError(`Primary key "${field.field}" must be of type integer, bigInteger, uuid or string.`, { field: field.field });
  }
  if (column.default_value !== undefined && column.default_value !== null) {
    throw new InvalidPayloadError(`Primary key "${field.field}" can't have a default value.`, { field: field.field });
  }
  if (kind === 'identity' && column.has_auto_increment !== false) return sql`generated by default as identity primary key`;
  if (kind === 'uuid') return sql`primary key default gen_random_uuid()`;
  return sql`primary key`;
}

/** `"name" type [identity | default …] [not null] [unique]`: one column of CREATE TABLE or ADD COLUMN. */
export function columnDefinitionSql(field: NewField, storage: GeometryStorage = 'geojson'): RawBuilder<unknown> {
  const column = field.column ?? {};
  const parts: RawBuilder<unknown>[] = [
    sql.id(field.field),
    columnTypeSql(field.type, { maxLength: column.max_length, precision: column.numeric_precision, scale: column.numeric_scale }, field.field, storage),
  ];
  if (column.is_primary_key) {
    parts.push(primaryKeySql(field, column));
    return sql.join(parts, sql` `);
  }
  if (column.has_auto_increment) {
    throw new InvalidPayloadError(`Only an integer primary key can auto-increment; "${field.field}" is not one.`, { field: field.field });
  }
  if (column.default_value !== undefined && column.default_value !== null) {
    parts.push(sql`default ${defaultSql(field.type, column.default_value, field.field, storage)}`);
  }
  if (column.is_nullable === false) parts.push(sql`not null`);
  if (column.is_unique) parts.push(sql`unique`);
  return sql.join(parts, sql` `);
}
