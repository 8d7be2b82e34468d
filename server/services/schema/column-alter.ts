import { sql, type Kysely } from 'kysely';
import { withDatabaseErrors } from '../../database/translate-db-error.ts';
import { InvalidPayloadError } from '../../errors.ts';
import type { FieldOverview } from '../../schema/overview.ts';
import type { FieldType } from '../../schema/types.ts';
import { isGeometryType } from '../../schema/geometry-types.ts';
import { geometryStorageOf, type GeometryStorage } from '../../schema/postgis.ts';
import { columnTypeSql, defaultSql } from './column-sql.ts';
import type { ColumnInput } from './field-payload.ts';

/** Type families whose literal defaults survive a type change between their members. */
const FAMILIES: Readonly<Partial<Record<FieldType, string>>> = {
  string: 'text',
  text: 'text',
  csv: 'text',
  integer: 'number',
  bigInteger: 'number',
  float: 'number',
  decimal: 'number',
};

/** A geometry field keeps the storage it has; any other field that becomes one takes the database's. */
function geometryStorageFor(trx: Kysely<any>, current: FieldOverview): Promise<GeometryStorage> | GeometryStorage {
  if (current.dbType === 'geometry') return 'postgis';
  if (isGeometryType(current.type)) return 'geojson';
  return geometryStorageOf(trx);
}

/** The column settings of `column` that differ from what the field has now. */
function changedSettings(current: FieldOverview, column: ColumnInput) {
  const differs = <T>(value: T | undefined, now: T) => value !== undefined && value !== now;
  return {
    default: column.default_value !== undefined && JSON.stringify(column.default_value) !== JSON.stringify(current.defaultValue),
    nullable: differs(column.is_nullable, current.nullable),
    unique: differs(column.is_unique, current.unique),
    primaryKey: differs(column.is_primary_key, current.primaryKey),
    autoIncrement: differs(column.has_auto_increment, current.generated && current.primaryKey),
    maxLength: differs(column.max_length, current.maxLength),
    precision: differs(column.numeric_precision, current.precision) || differs(column.numeric_scale, current.scale),
  };
}

/** True when the requested type and settings change anything about the column. */
export function changesColumn(current: FieldOverview, type: FieldType, column: ColumnInput | null | undefined): boolean {
  return type !== current.type || Object.values(changedSettings(current, column ?? {})).some(Boolean);
}

/** Drops every single-column unique constraint or unique index on the column. */
async function dropUnique(trx: Kysely<any>, table: string, column: string): Promise<void> {
  const { rows } = await sql<{ index: string; constraint: string | null }>`
    select ic.relname as index, con.conname as constraint
      from pg_index i
      join pg_class cl on cl.oid = i.indrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_class ic on ic.oid = i.indexrelid
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
      left join pg_constraint con on con.conindid = i.indexrelid and con.contype = 'u'
     where n.nspname = current_schema() and cl.relname = ${table} and a.attname = ${column}
       and i.indisunique and not i.indisprimary and i.indnatts = 1`.execute(trx);
  for (const row of rows) {
    if (row.constraint) await sql`alter table ${sql.id(table)} drop constraint ${sql.id(row.constraint)}`.execute(trx);
    else await sql`drop index ${sql.id(row.index)}`.execute(trx);
  }
}

/**
 * Applies a field's new type and column settings with ALTER TABLE: type (USING a cast), length,
 * precision, default, nullability, uniqueness. The primary key is refused. A type change outside the
 * default's family (text-like, numeric) drops the default unless a new one is given.
 */
export async function alterColumn(trx: Kysely<any>, table: string, current: FieldOverview, type: FieldType, column: ColumnInput): Promise<void> {
  const name = current.field;
  const changed = changedSettings(current, column);
  if (current.primaryKey && changesColumn(current, type, column)) {
    throw new InvalidPayloadError(`The primary key "${name}" can't be changed.`, { field: name });
  }
  if (changed.primaryKey) throw new InvalidPayloadError(`Field "${name}" can't become the primary key: a collection's primary key is set when it is created.`, { field: name });
  if (changed.autoIncrement) throw new InvalidPayloadError(`Only an integer primary key can auto-increment; "${name}" is not one.`, { field: name });
  const run = (statement: ReturnType<typeof sql>) => withDatabaseErrors(() => statement.execute(trx), { collection: table, field: name });
  const target = sql`alter table ${sql.id(table)} alter column ${sql.id(name)}`;

  const typeChanged = type !== current.type;
  if (typeChanged || changed.maxLength || changed.precision) {
    const size = {
      maxLength: column.max_length !== undefined ? column.max_length : current.maxLength,
      precision: column.numeric_precision !== undefined ? column.numeric_precision : current.precision,
      scale: column.numeric_scale !== undefined ? column.numeric_scale : current.scale,
    };
    const storage = await geometryStorageFor(trx, current);
    const newType = columnTypeSql(type, size, name, storage);
    const keepDefault = !typeChanged || (FAMILIES[type] !== undefined && FAMILIES[type] === FAMILIES[current.type]);
    if (!keepDefault && (current.defaultValue !== null || current.generated)) await run(sql`${target} drop default`);
    // The USING cast names the type without its size: an explicit cast to varchar(n) would silently
    // truncate, while the assignment to the sized column fails on values that do not fit.
    const castType = type === 'string' || type === 'hash' ? sql`varchar` : type === 'decimal' ? sql`numeric` : newType;
    const using = storage === 'postgis' && isGeometryType(type) && current.dbType !== 'geometry' ? sql`ST_GeomFromGeoJSON(${sql.id(name)}::text)` : sql`${sql.id(name)}::${castType}`;
    await run(sql`${target} type ${newType} using ${using}`);
  }
  if (changed.default) {
    const value = column.default_value;
    await run(value === null ? sql`${target} drop default` : sql`${target} set default ${defaultSql(type, value, name, await geometryStorageFor(trx, current))}`);
  }
  if (changed.nullable) await run(column.is_nullable ? sql`${target} drop not null` : sql`${target} set not null`);
  if (changed.unique) {
    if (column.is_unique) await run(sql`alter table ${sql.id(table)} add unique (${sql.id(name)})`);
    else await dropUnique(trx, table, name);
  }
}
