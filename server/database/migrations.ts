import { NO_STATEMENT_TIMEOUT } from './no-statement-timeout.ts';
import type { Orm } from './create-orm.ts';

/**
 * True when every system migration has run and graphile-worker's schema exists. `tessera start` then skips
 * MikroORM's migrator and graphile-worker's own migration check, about a third of a second of start-up
 * (docs/performance.md, "Start and memory"): the job worker, started right after the server listens,
 * runs graphile-worker's migrations itself, so an upgraded graphile-worker still gets its new ones.
 */
export async function systemMigrationsCurrent(orm: Orm): Promise<boolean> {
  const connection = orm.em.getConnection();
  const [tables] = await connection.execute<{ migrations: boolean; jobs: boolean }[]>(`select to_regclass('tessera_migrations') is not null as migrations, to_regclass('graphile_worker.migrations') is not null as jobs`);
  if (!tables?.migrations || !tables.jobs) return false;
  const ran = new Set((await connection.execute<{ name: string }[]>(`select name from tessera_migrations`)).map((row) => row.name));
  const driver = orm.em.getDriver();
  return orm.config.get('migrations').migrationsList!.every((entry) => {
    const migration = typeof entry === 'function' ? new entry(driver, orm.config) : entry;
    return ran.has((migration as { name: string }).name);
  });
}

/** One migration and whether it has run. */
export interface MigrationState {
  name: string;
  executedAt: Date | null;
}

/**
 * Runs every pending system migration in one transaction; returns the names it ran. An advisory lock
 * serialises instances that start together: the second waits, then finds nothing pending.
 */
export async function migrateLatest(orm: Orm): Promise<string[]> {
  await ensureMigrationsTable(orm);
  const ran = await orm.em.transactional(async (em) => {
    await em.execute(NO_STATEMENT_TIMEOUT);
    await em.execute(`select pg_advisory_xact_lock(hashtext('tessera:migrate'))`);
    const ran = await orm.migrator.up({ transaction: em.getTransactionContext() });
    return ran.map((migration) => migration.name);
  });
  // The job queue's schema (graphile-worker migrates it itself, under its own lock), after the transaction:
  // its migrations use connections of their own. graphile-worker loads only here, off a plain start's path.
  const { installJobQueue } = await import('../jobs/job-queue.ts');
  await installJobQueue(orm.config.get('clientUrl')!);
  return ran;
}

/**
 * Creates the migrations table before the locked transaction: the migrator does that on a connection of
 * its own, which would wait forever behind our open transaction on the single-session embedded database.
 * Instances racing on `create table if not exists` can collide in the catalog (duplicate type, relation
 * or index errors); the loser retries once the winner has committed, and rethrows a persistent error.
 */
async function ensureMigrationsTable(orm: Orm): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await orm.migrator.getExecuted();
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** Runs the next pending migration only. */
export async function migrateUp(orm: Orm): Promise<string[]> {
  const [next] = await orm.migrator.getPending();
  if (!next) return [];
  const ran = await orm.em.transactional(async (em) => {
    await em.execute(NO_STATEMENT_TIMEOUT);
    return orm.migrator.up({ migrations: [next.name], transaction: em.getTransactionContext() });
  });
  return ran.map((migration) => migration.name);
}

/** Reverts the most recent migration. */
export async function migrateDown(orm: Orm): Promise<string[]> {
  const ran = await orm.em.transactional(async (em) => {
    await em.execute(NO_STATEMENT_TIMEOUT);
    return orm.migrator.down({ transaction: em.getTransactionContext() });
  });
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
