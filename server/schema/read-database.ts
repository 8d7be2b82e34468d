import { sql, type Kysely, type RawBuilder } from 'kysely';

/** One column, in information_schema's terms (read from pg_catalog). */
export interface ColumnFacts {
  table: string;
  column: string;
  /** `udt_name`: varchar, int4, timestamptz … */
  udt: string;
  /** `data_type`: character varying, integer, timestamp with time zone … */
  dataType: string;
  nullable: boolean;
  default: string | null;
  identity: boolean;
  maxLength: number | null;
  precision: number | null;
  scale: number | null;
  /** The domain the column's type is, when it is one (geometry fields: server/schema/geometry-types.ts). */
  domain?: string | null;
  /** `format_type` of a PostGIS geometry column (`geometry(Point,4326)`), else null (server/schema/postgis.ts). */
  postgisType?: string | null;
}

/** A single-column foreign key. */
export interface ForeignKeyFacts {
  table: string;
  column: string;
  foreignTable: string;
  foreignColumn: string;
  constraintName: string;
  onDelete: string;
  onUpdate: string;
}

/** What the database itself says about the tables of the current schema. */
export interface DatabaseFacts {
  /** Columns by table, in column order. */
  columns: Map<string, ColumnFacts[]>;
  /** The primary-key column of each table with a single-column primary key. */
  primaryKeys: Map<string, string>;
  /** `table.column` of every column with a single-column unique constraint or index. */
  uniques: Set<string>;
  /** Foreign keys by `table.column`. */
  foreignKeys: Map<string, ForeignKeyFacts>;
  /** `table.column` of every column with a plain single-column btree index (what `schema.is_indexed` reports). */
  indexed: Set<string>;
}

/** pg_constraint's one-letter referential actions, spelled out. */
const ACTIONS: Readonly<Record<string, string>> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

/** Table names to read, or null for every table of the current schema. */
export type TableSelection = readonly string[] | null;

/** `and <relname> = any(tables)` when only some tables are read (pg_class is looked up by name, no full scan). */
function onlyTables(relname: RawBuilder<unknown>, tables: TableSelection): RawBuilder<unknown> {
  return tables ? sql`and ${relname} = any(${[...tables]}::name[])` : sql``;
}

/**
 * Columns from pg_catalog: what information_schema.columns reports (its own helper functions compute the
 * lengths and precisions, so the values are the same), without building that view for every column of the
 * database when only one table changed.
 */
async function readColumns(db: Kysely<any>, tables: TableSelection): Promise<ColumnFacts[]> {
  const result = await sql<ColumnFacts>`
    select cl.relname as "table", a.attname as "column", coalesce(bt.typname, t.typname) as udt,
           case when t.typtype = 'd' then
                  case when bt.typelem <> 0 and bt.typlen = -1 then 'ARRAY'
                       when nbt.nspname = 'pg_catalog' then format_type(t.typbasetype, null)
                       else 'USER-DEFINED' end
                else
                  case when t.typelem <> 0 and t.typlen = -1 then 'ARRAY'
                       when nt.nspname = 'pg_catalog' then format_type(a.atttypid, null)
                       else 'USER-DEFINED' end
           end as "dataType",
           not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as nullable,
           case when a.attgenerated = '' then pg_get_expr(ad.adbin, ad.adrelid) end as "default",
           a.attidentity in ('a', 'd') as identity,
           information_schema._pg_char_max_length(information_schema._pg_truetypid(a.*, t.*), information_schema._pg_truetypmod(a.*, t.*)) as "maxLength",
           information_schema._pg_numeric_precision(information_schema._pg_truetypid(a.*, t.*), information_schema._pg_truetypmod(a.*, t.*)) as precision,
           information_schema._pg_numeric_scale(information_schema._pg_truetypid(a.*, t.*), information_schema._pg_truetypmod(a.*, t.*)) as scale,
           case when t.typtype = 'd' then t.typname end as domain,
           case when coalesce(bt.typname, t.typname) = 'geometry' then format_type(a.atttypid, a.atttypmod) end as "postgisType"
      from pg_attribute a
      join pg_class cl on cl.oid = a.attrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_type t on t.oid = a.atttypid
      join pg_namespace nt on nt.oid = t.typnamespace
      left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
      left join (pg_type bt join pg_namespace nbt on nbt.oid = bt.typnamespace) on t.typtype = 'd' and bt.oid = t.typbasetype
     where n.nspname = current_schema() and cl.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
       ${onlyTables(sql`cl.relname`, tables)}
       -- information_schema shows only the columns the current user has some privilege on.
       and (pg_has_role(cl.relowner, 'USAGE') or has_column_privilege(cl.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES'))
       -- Tables an extension owns (PostGIS's spatial_ref_sys) are no collection.
       and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = cl.oid and d.deptype = 'e')
     order by cl.relname, a.attnum`.execute(db);
  return result.rows;
}

async function readPrimaryKeys(db: Kysely<any>, tables: TableSelection): Promise<Array<{ table: string; column: string }>> {
  const result = await sql<{ table: string; column: string }>`
    select cl.relname as "table", a.attname as "column"
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     where n.nspname = current_schema() and c.contype = 'p' and cardinality(c.conkey) = 1 ${onlyTables(sql`cl.relname`, tables)}`.execute(db);
  return result.rows;
}

async function readUniques(db: Kysely<any>, tables: TableSelection): Promise<Array<{ table: string; column: string }>> {
  const result = await sql<{ table: string; column: string }>`
    select cl.relname as "table", a.attname as "column"
      from pg_index i
      join pg_class cl on cl.oid = i.indrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
     where n.nspname = current_schema() and i.indisunique and not i.indisprimary and i.indnatts = 1
       and i.indpred is null and i.indexprs is null ${onlyTables(sql`cl.relname`, tables)}`.execute(db);
  return result.rows;
}

/** Plain single-column btree indexes: what `schema.is_indexed` reports (server/indexes/managed-indexes.ts `isColumnIndex`). */
async function readIndexed(db: Kysely<any>, tables: TableSelection): Promise<Array<{ table: string; column: string }>> {
  const result = await sql<{ table: string; column: string }>`
    select cl.relname as "table", a.attname as "column"
      from pg_index i
      join pg_class cl on cl.oid = i.indrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_class ic on ic.oid = i.indexrelid
      join pg_am am on am.oid = ic.relam
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
     where n.nspname = current_schema() and i.indisvalid and not i.indisunique and i.indnatts = 1
       and i.indpred is null and i.indexprs is null and am.amname = 'btree' ${onlyTables(sql`cl.relname`, tables)}`.execute(db);
  return result.rows;
}

async function readForeignKeys(db: Kysely<any>, tables: TableSelection): Promise<ForeignKeyFacts[]> {
  const result = await sql<ForeignKeyFacts>`
    select cl.relname as "table", a.attname as "column", rcl.relname as "foreignTable", ra.attname as "foreignColumn",
           c.conname as "constraintName", c.confdeltype as "onDelete", c.confupdtype as "onUpdate"
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_class rcl on rcl.oid = c.confrelid
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      join pg_attribute ra on ra.attrelid = c.confrelid and ra.attnum = c.confkey[1]
     where n.nspname = current_schema() and c.contype = 'f' and cardinality(c.conkey) = 1 ${onlyTables(sql`cl.relname`, tables)}
     order by cl.relname, a.attnum`.execute(db);
  return result.rows.map((row) => ({ ...row, onDelete: ACTIONS[row.onDelete] ?? row.onDelete, onUpdate: ACTIONS[row.onUpdate] ?? row.onUpdate }));
}

/**
 * Reads columns, primary keys, unique constraints, plain indexes and foreign keys of the current schema's
 * tables (only of `tables` when given: a change re-reads the tables it touched): one query each.
 */
export async function readDatabaseFacts(db: Kysely<any>, tables: TableSelection = null): Promise<DatabaseFacts> {
  const [columnRows, primaryKeyRows, uniqueRows, foreignKeyRows, indexedRows] = await Promise.all([
    readColumns(db, tables),
    readPrimaryKeys(db, tables),
    readUniques(db, tables),
    readForeignKeys(db, tables),
    readIndexed(db, tables),
  ]);
  const columns = new Map<string, ColumnFacts[]>();
  for (const row of columnRows) {
    const facts = { ...row, maxLength: toNumber(row.maxLength), precision: toNumber(row.precision), scale: toNumber(row.scale) };
    const list = columns.get(row.table);
    if (list) list.push(facts);
    else columns.set(row.table, [facts]);
  }
  return {
    columns,
    primaryKeys: new Map(primaryKeyRows.map((row) => [row.table, row.column])),
    uniques: new Set(uniqueRows.map((row) => `${row.table}.${row.column}`)),
    foreignKeys: new Map(foreignKeyRows.map((row) => [`${row.table}.${row.column}`, row])),
    indexed: new Set(indexedRows.map((row) => `${row.table}.${row.column}`)),
  };
}

/** information_schema reports numbers as `cardinal_number`, which may arrive as strings. */
function toNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
