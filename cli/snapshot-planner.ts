import { systemAccountability } from '../server/auth/accountability.ts';
import { loadConfig } from '../server/config/index.ts';
import { installedExtensions } from '../server/snapshot/extension-flags.ts';
import { SnapshotPlanner } from '../server/snapshot/snapshot-planner.ts';
import { openReadingDatabase } from './database-context.ts';

/** Where snapshot, diff and apply read and write by default. */
export const DEFAULT_SNAPSHOT_FOLDER = 'snapshots';

/**
 * Opens the database (without the app context or MikroORM: reading and planning write nothing), runs `work` with a
 * snapshot planner acting as the platform, and closes it again.
 */
export async function withSnapshotPlanner<T>(env: NodeJS.ProcessEnv, work: (planner: SnapshotPlanner) => Promise<T>): Promise<T> {
  const config = loadConfig(env);
  const opened = await openReadingDatabase(config);
  try {
    const host = { db: opened.db, installedExtensions: () => installedExtensions(config.extensions.path, config.extensions.projectDir) };
    return await work(new SnapshotPlanner(host, systemAccountability(), env));
  } finally {
    await opened.close();
  }
}

