import path from 'node:path';
import { SNAPSHOT_FORMATS, writeSnapshot, type SnapshotFormat } from '../../server/snapshot/serialize.ts';
import { ExitError, UsageError } from '../errors.ts';
import { DEFAULT_SNAPSHOT_FOLDER, withSnapshotPlanner } from '../snapshot-planner.ts';
import { otherProjectIn } from '../snapshot-owner.ts';

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
  const document = await withSnapshotPlanner(env, (planner) => planner.read());
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
