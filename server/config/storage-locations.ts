import path from 'node:path';
import { readVariables, reportInvalidVariables } from './read-variables.ts';
import { STORAGE_VARIABLE_SUFFIXES, storageVariablesSchema } from './variables.ts';

type Env = Record<string, string | undefined>;

/** One named place files are stored (docs/files.md, "Storage"). */
export type StorageLocationConfig =
  | { name: string; driver: 'local'; root: string }
  | {
      name: string;
      driver: 's3';
      bucket: string;
      /** Key prefix inside the bucket ('' for none). */
      root: string;
      endpoint: string | null;
      region: string;
      accessKeyId: string | null;
      secretAccessKey: string | null;
      forcePathStyle: boolean;
    };

/**
 * Reads and validates STORAGE_<NAME>_* (with `_FILE` twins) for every name in STORAGE_LOCATIONS. A local
 * location without a root stores under DATA_DIR/uploads (DATA_DIR/uploads/<name> for the second and later).
 */
export function readStorageLocations(env: Env, names: string[], dataDir: string, cwd: string, problems: string[]): StorageLocationConfig[] {
  const locations: StorageLocationConfig[] = [];
  for (const given of names) {
    const name = given.toLowerCase();
    if (!/^[a-z][a-z0-9_]*$/.test(name) || locations.some((location) => location.name === name)) {
      problems.push(`STORAGE_LOCATIONS: "${given}" must be a unique name of letters, digits and _ starting with a letter`);
      continue;
    }
    const prefix = `STORAGE_${name.toUpperCase()}_`;
    const raw = readVariables(env, STORAGE_VARIABLE_SUFFIXES, problems, prefix);
    try {
      const vars = storageVariablesSchema.validateSync(raw, { abortEarly: false, stripUnknown: true });
      if (vars.DRIVER === 'local') {
        const fallback = locations.length === 0 ? path.join(dataDir, 'uploads') : path.join(dataDir, 'uploads', name);
        locations.push({ name, driver: 'local', root: vars.ROOT ? path.resolve(cwd, vars.ROOT) : fallback });
        continue;
      }
      if (!vars.BUCKET) problems.push(`${prefix}BUCKET: is required for the s3 driver`);
      if (Boolean(vars.KEY) !== Boolean(vars.SECRET)) problems.push(`${prefix}KEY and ${prefix}SECRET: set both or neither (neither uses the AWS default credential chain)`);
      locations.push({
        name,
        driver: 's3',
        bucket: vars.BUCKET ?? '',
        root: (vars.ROOT ?? '').replace(/^\/+|\/+$/g, ''),
        endpoint: vars.ENDPOINT ?? null,
        region: vars.REGION,
        accessKeyId: vars.KEY ?? null,
        secretAccessKey: vars.SECRET ?? null,
        forcePathStyle: vars.FORCE_PATH_STYLE,
      });
    } catch (error) {
      reportInvalidVariables(error, raw, problems, prefix);
    }
  }
  return locations;
}
