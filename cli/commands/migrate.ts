import { loadConfig } from '../../server/config/index.ts';
import { migrateDown, migrateLatest, migrateUp, migrationStatus } from '../../server/database/migrations.ts';
import { openSystemContext } from '../context.ts';
import { UsageError } from '../errors.ts';
import { say } from '../prompts.ts';

/** What `tessera migrate` can do. */
export const DIRECTIONS = ['latest', 'up', 'down', 'status'] as const;
type Direction = (typeof DIRECTIONS)[number];

/** Runs `tessera migrate <direction>` against the configured database. */
export async function runMigrate(direction: string, options: { json?: boolean }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!DIRECTIONS.includes(direction as Direction)) throw new UsageError(`Unknown direction "${direction}"; use one of: ${DIRECTIONS.join(', ')}.`);
  const context = await openSystemContext(loadConfig(env));
  try {
    const orm = context.app.database.orm;
    if (direction === 'status') {
      const states = await migrationStatus(orm);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(states.map((s) => ({ name: s.name, executed_at: s.executedAt?.toISOString() ?? null })), null, 2)}\n`);
        return;
      }
      for (const state of states) say.info(`${state.executedAt ? 'done   ' : 'pending'}  ${state.name}${state.executedAt ? `  (${state.executedAt.toISOString()})` : ''}`);
      return;
    }
    const run = { latest: migrateLatest, up: migrateUp, down: migrateDown }[direction as Exclude<Direction, 'status'>];
    const names = await run(orm);
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ direction, migrations: names })}\n`);
      return;
    }
    if (names.length === 0) say.info('Nothing to migrate.');
    for (const name of names) say.success(`${direction === 'down' ? 'Reverted' : 'Applied'} ${name}`);
  } finally {
    await context.close();
  }
}

