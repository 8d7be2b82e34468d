import { InvalidPayloadError } from '../../errors.ts';
import { isInheritedName } from '../../own-keys.ts';
import { SYSTEM_PREFIX } from '../../schema/read-schema.ts';

/** Names of new collections and fields: a letter or underscore, then letters, digits, underscores; 63 at most (PostgreSQL's limit). */
export const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/i;

/** PostgreSQL's system columns: every table has them, so no field may take their names. */
const SYSTEM_COLUMNS: ReadonlySet<string> = new Set(['tableoid', 'xmin', 'cmin', 'xmax', 'cmax', 'ctid']);

/** Throws 400 naming `path` unless `name` can be a new field. */
export function assertFieldName(name: string, path = 'field'): void {
  if (!IDENTIFIER.test(name)) {
    throw new InvalidPayloadError(
      `"${name}" is not a valid name for ${path}: use 1 to 63 letters, digits or underscores, not starting with a digit.`,
      { field: path },
    );
  }
  if (SYSTEM_COLUMNS.has(name.toLowerCase())) {
    throw new InvalidPayloadError(`"${name}" is not a valid name for ${path}: PostgreSQL reserves it for a system column.`, { field: path });
  }
  // Payloads and rows are plain objects: a field named `toString` would find Object.prototype's member
  // wherever a payload without it is asked for it.
  if (isInheritedName(name)) {
    throw new InvalidPayloadError(`"${name}" is not a valid name for ${path}: every object has a member of that name.`, { field: path });
  }
}

/**
 * Throws 400 naming `path` unless `name` can be a new user collection: a valid identifier without the
 * `tessera_` prefix of system collections or the `pg_` prefix of PostgreSQL's catalog (whose tables an
 * unqualified name would resolve to first).
 */
export function assertCollectionName(name: string, path = 'collection'): void {
  assertFieldName(name, path);
  const lower = name.toLowerCase();
  for (const prefix of [SYSTEM_PREFIX, 'pg_']) {
    if (lower.startsWith(prefix)) {
      throw new InvalidPayloadError(`"${name}" is not a valid name for ${path}: the prefix "${prefix}" is reserved.`, { field: path });
    }
  }
}
