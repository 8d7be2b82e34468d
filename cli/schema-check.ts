import type { Database } from '../server/database/database.ts';
import { MIGRATIONS_TABLE } from '../server/database/create-orm.ts';
import { SchemaMissingError } from './errors.ts';

/**
 * Fails with one clear message when the database has no Tessera system schema, or an older one, so a
 * command never runs its queries into "relation … does not exist". Only reads: on an empty database the
 * migrator would create its table as a side effect, so the table's existence is checked first. `where`
 * names the database in messages ("PostgreSQL at db:5432 (DB_URL)").
 */
export async function assertSystemSchema(database: Database, where?: string): Promise<void> {
  const connection = database.orm.em.getConnection();
  let row: { table: string | null } | undefined;
  try {
    [row] = await connection.execute<Array<{ table: string | null }>>(`select to_regclass(?)::text as "table"`, [MIGRATIONS_TABLE]);
  } catch (error) {
    // 3D000: the database named in DB_URL does not exist yet.
    if ((error as { code?: string }).code === '3D000') {
      throw new SchemaMissingError(`${where ? `${where}: ` : ''}${(error as Error).message}: run \`tessera migrate\` (or \`tessera apply --migrate\`) to create and migrate it.`);
    }
    throw error;
  }
  if (!row?.table) {
    throw new SchemaMissingError('The database has no Tessera schema: run `tessera migrate` (or `tessera apply --migrate`) first.');
  }
  const pending = await database.orm.migrator.getPending();
  if (pending.length > 0) {
    throw new SchemaMissingError(`The database's Tessera schema is out of date (${pending.length} system migration(s) pending): run \`tessera migrate\` (or \`tessera apply --migrate\`) first.`);
  }
}
