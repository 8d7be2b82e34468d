import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { SnapshotService } from '../../../server/snapshot/snapshot-service.ts';
import type { TestApp } from '../../helpers/test-app.ts';

/** The example project: the repository's own configuration as code, in snapshots/. */
export const EXAMPLE_FOLDER = fileURLToPath(new URL('../../../snapshots', import.meta.url));

/** A snapshot service on a test app, acting as the platform; `env` resolves secret references. */
export function snapshotService(app: TestApp, env: NodeJS.ProcessEnv = {}): SnapshotService {
  const { context } = app;
  return new SnapshotService({ db: context.database.kysely(), schemaCache: context.schema, servicesContext: context.servicesContext }, systemAccountability(), env);
}

/** Every file under `folder`, by relative path, as text. */
export function readTree(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory).sort()) {
      const full = path.join(directory, entry);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(path.relative(folder, full).split(path.sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(folder);
  return files;
}
