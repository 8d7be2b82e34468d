import path from 'node:path';
import { loadConfig } from '../../server/config/index.ts';
import { migrateDown, migrateLatest, migrateUp, migrationStatus } from '../../server/database/migrations.ts';
import {
  createProjectMigration,
  lastExecutedMigration,
  migrateProjectDown,
  migrateProjectLatest,
  PROJECT_PREFIX,
  projectMigrationStatus,
} from '../../server/database/project-migrations.ts';
import { openSystemContext } from '../context.ts';
import { UsageError } from '../errors.ts';
import { say } from '../prompts.ts';
import { announceSchemaChange, type RunningServerNotice } from '../running-server.ts';

/** What `tessera migrate` can do. */
export const DIRECTIONS = ['latest', 'up', 'down', 'status', 'create'] as const;
type Direction = (typeof DIRECTIONS)[number];

/**
 * Runs `tessera migrate <direction>`: system migrations first, then the project's own (MIGRATIONS_PATH).
 * `latest` runs every pending one, `up` the next, `down` reverts the most recent, `create <name>`
 * scaffolds a project migration.
 */
export async function runMigrate(direction: string, options: { json?: boolean; name?: string }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!DIRECTIONS.includes(direction as Direction)) throw new UsageError(`Unknown direction "${direction}"; use one of: ${DIRECTIONS.join(', ')}.`);
  const config = loadConfig(env);
  if (direction === 'create') {
    if (!options.name) throw new UsageError('migrate create needs a name: tessera migrate create add-post-views');
    const file = createProjectMigration(config.migrationsPath, options.name);
    if (options.json) process.stdout.write(`${JSON.stringify({ file })}\n`);
    else say.success(`Created ${path.relative(process.cwd(), file)}`);
    return;
  }
  const context = await openSystemContext(config, { requireSchema: false });
  try {
    const orm = context.app.database.orm;
    const db = context.app.database.kysely();
    const folder = config.migrationsPath;
    if (direction === 'status') {
      const system = (await migrationStatus(orm)).filter((state) => !state.name.startsWith(PROJECT_PREFIX));
      const states = [...system, ...(await projectMigrationStatus(db, folder))];
      if (options.json) {
        process.stdout.write(`${JSON.stringify(states.map((s) => ({ name: s.name, executed_at: s.executedAt?.toISOString() ?? null })), null, 2)}\n`);
        return;
      }
      for (const state of states) say.info(`${state.executedAt ? 'done   ' : 'pending'}  ${state.name}${state.executedAt ? `  (${state.executedAt.toISOString()})` : ''}`);
      return;
    }
    let names: string[];
    if (direction === 'latest') names = [...(await migrateLatest(orm)), ...(await migrateProjectLatest(db, folder))];
    else if (direction === 'up') {
      names = await migrateUp(orm);
      if (names.length === 0) names = await migrateProjectLatest(db, folder, 1);
    } else {
      const last = await lastExecutedMigration(db);
      names = last?.startsWith(PROJECT_PREFIX) ? [(await migrateProjectDown(db, folder))!] : await migrateDown(orm);
    }
    let running: RunningServerNotice | null = null;
    if (names.length > 0) {
      // Running instances rebuild their schema and drop cached responses (through Redis when configured).
      context.app.schema.invalidate();
      await context.app.responseCache.purgeAll();
      running = await announceSchemaChange(context);
    }
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ direction, migrations: names, ...(running ? { running_server: running } : {}) })}\n`);
      return;
    }
    if (names.length === 0) say.info('Nothing to migrate.');
    for (const name of names) say.success(`${direction === 'down' ? 'Reverted' : 'Applied'} ${name}`);
    if (running?.message) say.info(running.message);
  } finally {
    await context.close();
  }
}
