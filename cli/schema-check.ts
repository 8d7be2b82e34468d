import { sql, type Kysely } from 'kysely';
import { MIGRATIONS_TABLE, systemMigrationNames } from '../migrations/names.ts';
import { SchemaMissingError } from './errors.ts';

/**
 * Fails with one clear message when the database has no Tessera system schema, or an older one, so a
 * command never runs its queries into "relation … does not exist". One read of the migrations table against
 * the migrations this code knows (migrations/names.ts), without MikroORM's migrator, which would create the
 * table on an empty database and loads every migration module. `where` names the database in messages
 * ("PostgreSQL at db:5432 (DB_URL)").
 */
export async function assertSystemSchema(db: Kysely<any>, where?: string): Promise<void> {
  let executed: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATIONS_TABLE)}`.execute(db);
    executed = new Set(rows.map((row) => row.name));
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 3D000: the database named in DB_URL does not exist yet.
    if (code === '3D000') {
      throw new SchemaMissingError(`${where ? `${where}: ` : ''}${(error as Error).message}: run \`tessera migrate\` (or \`tessera apply --migrate\`) to create and migrate it.`);
    }
    // 42P01: no migrations table.
    if (code === '42P01') {
      throw new SchemaMissingError('The database has no Tessera schema: run `tessera migrate` (or `tessera apply --migrate`) first.');
    }
    throw error;
  }
  const pending = systemMigrationNames.filter((name) => !executed.has(name));
  if (pending.length > 0) {
    throw new SchemaMissingError(`The database's Tessera schema is out of date (${pending.length} system migration(s) pending): run \`tessera migrate\` (or \`tessera apply --migrate\`) first.`);
  }
}
