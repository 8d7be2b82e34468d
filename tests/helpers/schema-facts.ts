import { sql, type Kysely } from 'kysely';

/** A column as information_schema reports it. */
export interface ColumnRow {
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  character_maximum_length: number | null;
}

/** The columns of `table` in the current schema, by name (empty when the table does not exist). */
export async function columnsOf(db: Kysely<any>, table: string): Promise<Record<string, ColumnRow>> {
  const { rows } = await sql<ColumnRow>`
    select column_name, data_type, is_nullable, column_default, character_maximum_length
      from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.column_name, row]));
}

/** True when `table` exists in the current schema. */
export async function tableExists(db: Kysely<any>, table: string): Promise<boolean> {
  const { rows } = await sql`select 1 from information_schema.tables where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return rows.length > 0;
}

/** The constraints of `table`: type (p, u, f, c), definition as pg_get_constraintdef writes it. */
export async function constraintsOf(db: Kysely<any>, table: string): Promise<Array<{ type: string; definition: string }>> {
  const { rows } = await sql<{ type: string; definition: string }>`
    select c.contype::text as type, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = current_schema() and t.relname = ${table}`.execute(db);
  return rows;
}

/** The metadata rows Tessera keeps about `collection`. */
export async function metadataOf(db: Kysely<any>, collection: string) {
  const [collections, fields, relations] = await Promise.all([
    db.selectFrom('tessera_collections').selectAll().where('collection', '=', collection).execute(),
    db.selectFrom('tessera_fields').selectAll().where('collection', '=', collection).execute(),
    db
      .selectFrom('tessera_relations')
      .selectAll()
      .where((eb) => eb.or([eb('many_collection', '=', collection), eb('one_collection', '=', collection)]))
      .execute(),
  ]);
  return { collections, fields, relations };
}
