import type { Kysely } from 'kysely';
import type { SchemaOverview } from './overview.ts';
import { readSchemaOverview } from './read-schema.ts';

/** The process's schema overview: built on first use, shared by every request, rebuilt after a change. */
export interface SchemaCache {
  /** The current overview; concurrent callers share one build. */
  get(): Promise<SchemaOverview>;
  /** Forgets the overview so the next `get()` reads the database again. */
  invalidate(): void;
}

/**
 * A schema cache reading through `db()` (called for every build, so it always gets a live handle);
 * `read` is the reader, replaceable in tests; `onInvalidate` runs on every invalidation (caches derived from
 * the schema, such as permissions, clear with it).
 */
export function createSchemaCache(
  db: () => Kysely<any>,
  read: (db: Kysely<any>) => Promise<SchemaOverview> = readSchemaOverview,
  onInvalidate: () => void = () => {},
): SchemaCache {
  let current: Promise<SchemaOverview> | null = null;
  return {
    get() {
      if (current) return current;
      const build: Promise<SchemaOverview> = read(db()).catch((error: unknown) => {
        // A failed build is not kept: the next caller tries again.
        if (current === build) current = null;
        throw error;
      });
      current = build;
      return build;
    },
    invalidate() {
      current = null;
      onInvalidate();
    },
  };
}
