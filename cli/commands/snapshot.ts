import path from 'node:path';
import { systemAccountability } from '../../server/auth/accountability.ts';
import { loadConfig } from '../../server/config/index.ts';
import { SNAPSHOT_FORMATS, writeSnapshot, type SnapshotFormat } from '../../server/snapshot/serialize.ts';
import { SnapshotService } from '../../server/snapshot/snapshot-service.ts';
import { openSystemContext } from '../context.ts';
import { UsageError } from '../errors.ts';

/** Where snapshot, diff and apply read and write by default. */
export const DEFAULT_SNAPSHOT_FOLDER = 'snapshots';

/** Opens the database, runs `work` with a snapshot service acting as the platform, and closes it again. */
export async function withSnapshotService<T>(env: NodeJS.ProcessEnv, work: (service: SnapshotService) => Promise<T>): Promise<T> {
  const context = await openSystemContext(loadConfig(env));
  try {
    const { app } = context;
    const host = { db: app.database.kysely(), schemaCache: app.schema, servicesContext: app.servicesContext };
    return await work(new SnapshotService(host, systemAccountability(), env));
  } finally {
    await context.close();
  }
}

/** Options of `tessera snapshot`. */
export interface SnapshotOptions {
  out?: string;
  format?: string;
  json?: boolean;
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
  const files = writeSnapshot(folder, document, format);
  process.stdout.write(`Wrote ${files.length} files to ${path.relative(process.cwd(), folder) || '.'}/ (${document.collections.length} collections, ${document.roles?.length ?? 0} roles).\n`);
}
