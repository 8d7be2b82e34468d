import type { Kysely } from 'kysely';
import type { SchemaOverview } from './overview.ts';
import { patchSchemaOverview, readSchemaOverview } from './read-schema.ts';

/** The overview a cache last built and the collections changed since, which a reader must read again. */
export interface SchemaPeek {
  overview: SchemaOverview;
  changed: ReadonlySet<string>;
}

/** The process's schema overview: built on first use, shared by every request, patched or rebuilt after a change. */
export interface SchemaCache {
  /** The current overview; concurrent callers share one build. */
  get(): Promise<SchemaOverview>;
  /**
   * Forgets what changed: with `collections`, only those are read again on the next `get()` (their tables,
   * metadata and the relations stored on them) and the rest of the overview is kept; without, all of it.
   * An empty list changes no collection but still clears what derives from the schema (permissions), and
   * the next `get()` hands out a new overview object: caches keyed by it (compiled reads, GraphQL schemas,
   * schema lists) start over, as they must after a change of roles or permissions.
   */
  invalidate(collections?: Iterable<string>): void;
  /**
   * The overview as last built and the collections changed since, without reading anything; null when none
   * was built or all of it must be read again. A transaction patches it through its own connection.
   */
  peek(): SchemaPeek | null;
}

/** Reads `names` again into `previous`; null when it can't (then the whole schema is read). */
export type SchemaPatcher = (db: Kysely<any>, previous: SchemaOverview, names: readonly string[]) => Promise<SchemaOverview | null>;

/**
 * A schema cache reading through `db()` (called for every build, so it always gets a live handle);
 * `read` is the reader, `patch` the incremental reader, replaceable in tests; `onInvalidate` runs on every
 * invalidation (caches derived from the schema, such as permissions, clear with it).
 */
export function createSchemaCache(
  db: () => Kysely<any>,
  read: (db: Kysely<any>) => Promise<SchemaOverview> = readSchemaOverview,
  onInvalidate: () => void = () => {},
  patch: SchemaPatcher = patchSchemaOverview,
): SchemaCache {
  let current: Promise<SchemaOverview> | null = null;
  // Invalidated since `current` started: the next get() patches them in (an empty set still makes a new overview).
  let changed: Set<string> | null = null;
  // The last overview `current` resolved to, and what builds started since then re-read (for peek()).
  let settled: SchemaOverview | null = null;
  let settledChanges = new Set<string>();

  const keep = (build: Promise<SchemaOverview>): Promise<SchemaOverview> => {
    const kept: Promise<SchemaOverview> = build.then(
      (overview) => {
        if (current === kept) {
          settled = overview;
          settledChanges = new Set();
        }
        return overview;
      },
      (error: unknown) => {
        // A failed build is not kept: the next caller reads it all again.
        if (current === kept) {
          current = null;
          settled = null;
        }
        throw error;
      },
    );
    current = kept;
    return kept;
  };

  return {
    get() {
      if (current && !changed) return current;
      if (!current) return keep(read(db()));
      const names = [...(changed ?? [])];
      changed = null;
      for (const name of names) settledChanges.add(name);
      // Chained on the build before it: a read that began before the change is re-read after it.
      return keep(current.then(async (previous) => (await patch(db(), previous, names)) ?? read(db())));
    },
    invalidate(collections) {
      if (collections === undefined) {
        current = null;
        settled = null;
        changed = null;
      } else if (current) {
        changed ??= new Set();
        for (const name of collections) changed.add(name);
      }
      onInvalidate();
    },
    peek() {
      if (!settled) return null;
      return { overview: settled, changed: new Set([...settledChanges, ...(changed ?? [])]) };
    },
  };
}
