import path from 'node:path';
import { systemAccountability } from '../../server/auth/accountability.ts';
import { loadConfig } from '../../server/config/index.ts';
import { migrateLatest } from '../../server/database/migrations.ts';
import { migrateProjectLatest } from '../../server/database/project-migrations.ts';
import { SNAPSHOT_FORMATS, writeSnapshot, type SnapshotFormat } from '../../server/snapshot/serialize.ts';
import { installedExtensions } from '../../server/snapshot/extension-flags.ts';
import { SnapshotService } from '../../server/snapshot/snapshot-service.ts';
import { openSystemContext, type SystemContext } from '../context.ts';
import { ExitError, UsageError } from '../errors.ts';
import { otherProjectIn } from '../snapshot-owner.ts';

/** Where snapshot, diff and apply read and write by default. */
export const DEFAULT_SNAPSHOT_FOLDER = 'snapshots';

/**
 * Opens the database, runs `work` with a snapshot service acting as the platform, and closes it again.
 * With `migrate`, pending system and project migrations run first (`apply --migrate` on a new database).
 */
export async function withSnapshotService<T>(
  env: NodeJS.ProcessEnv,
  work: (service: SnapshotService, context: SystemContext) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const config = loadConfig(env);
  const context = await openSystemContext(config, { requireSchema: !options.migrate });
  try {
    const { app } = context;
    if (options.migrate) {
      await migrateLatest(app.database.orm);
      await migrateProjectLatest(app.database.kysely(), config.migrationsPath);
    }
    const host = { db: app.database.kysely(), schemaCache: app.schema, servicesContext: app.servicesContext, installedExtensions: () => installedExtensions(config.extensions.path, config.extensions.projectDir) };
    return await work(new SnapshotService(host, systemAccountability(), env), context);
  } finally {
    await context.close();
  }
}

/** Options of `tessera snapshot`. */
export interface SnapshotOptions {
  out?: string;
  format?: string;
  json?: boolean;
  force?: boolean;
}

/** `tessera snapshot`: writes the database's schema and configuration as files (or one JSON document to stdout). */
export async function runSnapshot(options: SnapshotOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const format = (options.format ?? 'yaml') as SnapshotFormat;
  if (!SNAPSHOT_FORMATS.includes(format)) throw new UsageError(`--format must be one of: ${SNAPSHOT_FORMATS.join(', ')}.`);
  const document = await withSnapshotService(env, (service) => service.read());
  if (options.json) {
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  const folder = path.resolve(options.out ?? DEFAULT_SNAPSHOT_FOLDER);
  const shown = path.relative(process.cwd(), folder) || '.';
  const databaseProject = document.settings?.project_name as string | null | undefined;
  const other = options.force ? null : otherProjectIn(folder, databaseProject);
  if (other !== null) {
    throw new ExitError(
      1,
      `Refusing: ${shown}/ holds the snapshot of another project ("${other}"; this database is "${databaseProject}"). ` +
        'Write elsewhere with --out <folder>, or pass --force to replace it (e.g. after renaming the project).',
    );
  }
  const files = writeSnapshot(folder, document, format);
  process.stdout.write(`Wrote ${files.length} files to ${shown}/ (${document.collections.length} collections, ${document.roles?.length ?? 0} roles).\n`);
}
