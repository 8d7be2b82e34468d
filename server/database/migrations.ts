import type { Orm } from './create-orm.ts';

/** One migration and whether it has run. */
export interface MigrationState {
  name: string;
  executedAt: Date | null;
}

/** Runs every pending system migration; returns the names it ran. */
export async function migrateLatest(orm: Orm): Promise<string[]> {
  const ran = await orm.migrator.up();
  return ran.map((migration) => migration.name);
}

/** Runs the next pending migration only. */
export async function migrateUp(orm: Orm): Promise<string[]> {
  const [next] = await orm.migrator.getPending();
  if (!next) return [];
  const ran = await orm.migrator.up({ migrations: [next.name] });
  return ran.map((migration) => migration.name);
}

/** Reverts the most recent migration. */
export async function migrateDown(orm: Orm): Promise<string[]> {
  const ran = await orm.migrator.down();
  return ran.map((migration) => migration.name);
}

/** Every known migration, executed ones with their time, in order. */
export async function migrationStatus(orm: Orm): Promise<MigrationState[]> {
  const executed = await orm.migrator.getExecuted();
  const pending = await orm.migrator.getPending();
  return [
    ...executed.map((row) => ({ name: row.name, executedAt: new Date(row.executed_at) })),
    ...pending.map((migration) => ({ name: migration.name, executedAt: null })),
  ];
}
