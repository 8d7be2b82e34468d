import { sql, type Kysely } from 'kysely';
import { isColumnIndex, readIndexes } from '../indexes/managed-indexes.ts';

/** One column as information_schema describes it. */
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

async function readColumns(db: Kysely<any>): Promise<ColumnFacts[]> {
  const result = await sql<ColumnFacts>`
    select c.table_name as "table", c.column_name as "column", c.udt_name as udt, c.data_type as "dataType",
           c.is_nullable = 'YES' as nullable, c.column_default as "default", c.is_identity = 'YES' as identity,
           c.character_maximum_length as "maxLength", c.numeric_precision as precision, c.numeric_scale as scale,
           c.domain_name as domain,
           case when c.udt_name = 'geometry' then
             (select format_type(a.atttypid, a.atttypmod) from pg_attribute a
               where a.attrelid = format('%I.%I', c.table_schema, c.table_name)::regclass and a.attname = c.column_name)
           end as "postgisType"
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
       -- Tables an extension owns (PostGIS's spatial_ref_sys) are no collection.
       and not exists (select 1 from pg_depend d
                        where d.classid = 'pg_class'::regclass and d.deptype = 'e'
                          and d.objid = format('%I.%I', c.table_schema, c.table_name)::regclass)
     order by c.table_name, c.ordinal_position`.execute(db);
  return result.rows;
}

async function readPrimaryKeys(db: Kysely<any>): Promise<Array<{ table: string; column: string }>> {
  const result = await sql<{ table: string; column: string }>`
    select cl.relname as "table", a.attname as "column"
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     where n.nspname = current_schema() and c.contype = 'p' and cardinality(c.conkey) = 1`.execute(db);
  return result.rows;
}

async function readUniques(db: Kysely<any>): Promise<Array<{ table: string; column: string }>> {
  const result = await sql<{ table: string; column: string }>`
    select cl.relname as "table", a.attname as "column"
      from pg_index i
      join pg_class cl on cl.oid = i.indrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
     where n.nspname = current_schema() and i.indisunique and not i.indisprimary and i.indnatts = 1
       and i.indpred is null and i.indexprs is null`.execute(db);
  return result.rows;
}

async function readForeignKeys(db: Kysely<any>): Promise<ForeignKeyFacts[]> {
  const result = await sql<ForeignKeyFacts>`
    select cl.relname as "table", a.attname as "column", rcl.relname as "foreignTable", ra.attname as "foreignColumn",
           c.conname as "constraintName", c.confdeltype as "onDelete", c.confupdtype as "onUpdate"
      from pg_constraint c
      join pg_class cl on cl.oid = c.conrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_class rcl on rcl.oid = c.confrelid
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      join pg_attribute ra on ra.attrelid = c.confrelid and ra.attnum = c.confkey[1]
     where n.nspname = current_schema() and c.contype = 'f' and cardinality(c.conkey) = 1`.execute(db);
  return result.rows.map((row) => ({ ...row, onDelete: ACTIONS[row.onDelete] ?? row.onDelete, onUpdate: ACTIONS[row.onUpdate] ?? row.onUpdate }));
}

/** Reads columns, primary keys, unique constraints and foreign keys of the current schema: one query each. */
export async function readDatabaseFacts(db: Kysely<any>): Promise<DatabaseFacts> {
  const [columnRows, primaryKeyRows, uniqueRows, foreignKeyRows, indexes] = await Promise.all([
    readColumns(db),
    readPrimaryKeys(db),
    readUniques(db),
    readForeignKeys(db),
    readIndexes(db),
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
    indexed: new Set(indexes.filter((index) => isColumnIndex(index, index.columns[0]!)).map((index) => `${index.table}.${index.columns[0]}`)),
  };
}

/** information_schema reports numbers as `cardinal_number`, which may arrive as strings. */
function toNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
