import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { SNAPSHOT_EXTENSIONS } from '../server/snapshot/layout.ts';

/** The project name recorded in the snapshot already in `folder`, or null when there is none to compare. */
export function snapshotProjectName(folder: string): string | null {
  const hasManifest = SNAPSHOT_EXTENSIONS.some((extension) => existsSync(path.join(folder, `tessera${extension}`)));
  if (!hasManifest) return null;
  for (const extension of SNAPSHOT_EXTENSIONS) {
    const file = path.join(folder, 'config', `settings${extension}`);
    if (!existsSync(file)) continue;
    try {
      // YAML is a superset of JSON: one parser reads both formats (js-yaml, as the snapshot loader does).
      const name = (load(readFileSync(file, 'utf8'), { schema: CORE_SCHEMA }) as { settings?: { project_name?: unknown } } | null)?.settings?.project_name;
      return typeof name === 'string' ? name : null;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Why writing a snapshot of project `databaseProject` into `folder` would replace another project's
 * snapshot, or null when it is safe. A project is recognised by its settings' project name: the snapshot
 * carries it and `apply` writes it, so the folder and every database applied from it share it.
 */
export function otherProjectIn(folder: string, databaseProject: string | null | undefined): string | null {
  const folderProject = snapshotProjectName(folder);
  if (folderProject === null || databaseProject == null || folderProject === databaseProject) return null;
  return folderProject;
}
