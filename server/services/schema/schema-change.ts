import type { Kysely } from 'kysely';
import { withDatabaseErrors } from '../../database/translate-db-error.ts';
import type { SchemaOverview } from '../../schema/overview.ts';
import { patchSchemaOverview, readSchemaOverview } from '../../schema/read-schema.ts';
import type { SchemaCache } from '../../schema/schema-cache.ts';
import type { ServiceContext } from '../service-context.ts';

/** Collections changed, or 'all' when a change could not say which. */
type Changes = Set<string> | 'all';

/** What a transaction opened by `inSchemaTransaction` (or tracked with `trackSchemaChanges`) changed of the schema. */
interface TransactionSchema {
  /** The overview as the transaction saw it when last read. */
  overview: SchemaOverview | null;
  /** Changed since `overview` was read. */
  dirty: Changes;
  /** Changed in the whole transaction: what the cache forgets after it ends. */
  changed: Changes;
}

const TRANSACTIONS = new WeakMap<Kysely<any>, TransactionSchema>();

function add(changes: Changes, collections: readonly string[] | undefined): Changes {
  if (changes === 'all' || collections === undefined) return 'all';
  for (const name of collections) changes.add(name);
  return changes;
}

/**
 * Records a schema change made in `trx` (`collections` undefined: any part of it); false when `trx` is not
 * tracked, and the caller must invalidate the cache itself.
 */
export function noteSchemaChange(trx: Kysely<any>, collections: readonly string[] | undefined): boolean {
  const state = TRANSACTIONS.get(trx);
  if (!state) return false;
  state.dirty = add(state.dirty, collections);
  state.changed = add(state.changed, collections);
  return true;
}

/**
 * Tracks the schema changes made in `trx` from now on, so the services read the schema in it by patching
 * (see currentSchema); `overview`, when given, is the schema as `trx` sees it now.
 */
export function trackSchemaChanges(trx: Kysely<any>, overview: SchemaOverview | null = null): void {
  TRANSACTIONS.set(trx, { overview, dirty: new Set(), changed: new Set() });
}

/**
 * The overview inside a tracked transaction: the last one read in it (or the cache's, without reading
 * through another connection) with the collections changed since read again through `trx`.
 */
async function transactionOverview(trx: Kysely<any>, cache: SchemaCache, state: TransactionSchema): Promise<SchemaOverview> {
  let base = state.dirty === 'all' ? null : state.overview;
  const names = state.dirty === 'all' ? [] : [...state.dirty];
  if (!base && state.dirty !== 'all') {
    const peek = cache.peek();
    if (peek) {
      base = peek.overview;
      names.push(...peek.changed);
    }
  }
  state.dirty = new Set();
  const overview = base && names.length === 0 ? base : (base && (await patchSchemaOverview(trx, base, names))) || (await readSchemaOverview(trx));
  state.overview = overview;
  return overview;
}

/**
 * The schema as the service's database handle sees it: the cached overview; inside a transaction opened
 * by `inSchemaTransaction`, that overview with what the transaction changed re-read through it (it sees
 * its own uncommitted changes, and takes no second connection); inside any other transaction, one whole
 * read through it.
 */
export function currentSchema(context: ServiceContext, cache: SchemaCache): Promise<SchemaOverview> {
  const { db } = context;
  if (!db.isTransaction) return cache.get();
  const state = TRANSACTIONS.get(db);
  return state ? transactionOverview(db, cache, state) : readSchemaOverview(db);
}

/**
 * Runs `work` in a new transaction whose schema changes are tracked (services inside it patch their
 * overview instead of reading it all); once it ends the cache forgets the collections it changed.
 */
export async function inSchemaTransaction<T>(db: Kysely<any>, cache: SchemaCache, work: (trx: Kysely<any>) => Promise<T>): Promise<T> {
  const state: TransactionSchema = { overview: null, dirty: new Set(), changed: new Set() };
  try {
    return await db.transaction().execute((trx) => {
      TRANSACTIONS.set(trx, state);
      return work(trx);
    });
  } finally {
    // The changes were invisible to other connections until the commit: re-read them from the committed schema.
    cache.invalidate(state.changed === 'all' ? undefined : state.changed);
  }
}

/**
 * Runs DDL and metadata writes in ONE transaction (PostgreSQL's DDL is transactional, so a failure
 * leaves neither a table nor its metadata behind), then has the cache re-read `collections` (every
 * collection whose tables, metadata or stored relations the work may change; undefined: all of it).
 * Inside a caller's transaction it joins that one. `work` must use only the handle it is given: on the
 * embedded database a second connection would wait for this transaction forever.
 */
export async function runSchemaChange<T>(
  context: ServiceContext,
  cache: SchemaCache,
  collections: Iterable<string> | undefined,
  work: (trx: Kysely<any>) => Promise<T>,
): Promise<T> {
  const { db } = context;
  const names = collections === undefined ? undefined : [...new Set(collections)];
  try {
    return await withDatabaseErrors(() => (db.isTransaction ? work(db) : db.transaction().execute(work)));
  } finally {
    if (!db.isTransaction || !noteSchemaChange(db, names)) cache.invalidate(names);
  }
}

/**
 * `names` and every collection that shares a relation with one of them: what a change to relations may
 * touch besides its own collection (reverse aliases, junction partners, m2a lists).
 */
export function withRelated(schema: SchemaOverview, names: Iterable<string | null | undefined>): string[] {
  const seeds = new Set<string>();
  for (const name of names) if (name) seeds.add(name);
  const result = new Set(seeds);
  for (const relation of schema.relations) {
    const { collection, relatedCollection } = relation;
    const touches = seeds.has(collection) || (relatedCollection !== null && seeds.has(relatedCollection)) || relation.meta.oneAllowedCollections?.some((name) => seeds.has(name));
    if (!touches) continue;
    result.add(collection);
    if (relatedCollection) result.add(relatedCollection);
  }
  return [...result];
}
