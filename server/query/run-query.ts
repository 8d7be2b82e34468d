import { CompiledQuery, type Kysely } from 'kysely';
import { markPreparable } from '../database/prepared-statements.ts';
import { bindKeys, boundKeysIn, type BoundKeys } from './bound-keys.ts';
import { cancellable } from '../database/request-signal.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { compileAggregateQuery } from './compile-aggregate.ts';
import { compileReadQuery, type CompiledRead } from './compile-read.ts';
import { noteAgain, noteDynamicValues, noteWhile } from '../cache/answer-dependence.ts';
import { reusableRead, reuseKey, type ReusableRead } from './compiled-reads.ts';
import { translateQueryError } from './query-db-errors.ts';
import { InvalidQueryError } from '../errors.ts';
import { shapeOf } from '../indexes/query-shapes.ts';
import type { Query, ReadMeta, ReadOptions, ReadResult } from './types.ts';
import { assertRelationalDepth } from './relational-depth.ts';
import { assertCursorQuery, takeCursorPage } from './keyset-cursor.ts';

/** Bind parameters one PostgreSQL statement can carry (the protocol counts them in 16 bits). */
const MAX_PARAMETERS = 65_535;

interface Row<Data> {
  data: Data;
  version?: string;
  total_count?: string | number;
  filter_count?: string | number;
  __cursor?: Array<string | null>;
}

/** The rows of a read and its counts, whatever form the items come in. */
interface Rows<Data> {
  data: Data[];
  meta?: ReadMeta;
  /** Each item's version, in the order of `data`, when the read asked for them (ReadOptions.versionKey). */
  versions?: string[];
}

function metaOf(row: Partial<Row<unknown>>, compiled: Pick<CompiledRead, 'meta'>): ReadMeta {
  const meta: ReadMeta = {};
  for (const key of compiled.meta) meta[key] = Number(row[key] ?? 0);
  return meta;
}

function compileRead(schema: SchemaOverview, collection: string, query: Query, options: ReadOptions): CompiledRead {
  assertCursorQuery(query);
  if (query.aggregate || query.groupBy) return compileAggregateQuery(schema, collection, query, options);
  return compileReadQuery(schema, collection, query, options);
}

/** The read compiled, or found compiled by an earlier read with the same query and rules (compiled-reads.ts). */
function compile(db: Kysely<any>, schema: SchemaOverview, collection: string, query: Query, options: ReadOptions): ReusableRead {
  // Whoever built the query (a URL, a panel's options, a service), the response cache learns that this
  // request's answer depends on the caller or the clock.
  noteDynamicValues(query);
  const read = reusableRead(schema, reuseKey(collection, query, options), () => {
    // What the compile resolved (a rule's `$CURRENT_USER`, `$NOW`) stays with the kept read, for every reuse.
    const { result, noted } = noteWhile(() => {
      const { meta, counts, statement, cursor } = compileRead(schema, collection, query, options);
      const { sql, parameters } = compileStatement(db, statement);
      return { meta, counts, cursor, statement: CompiledQuery.raw(sql, [...parameters]), keys: boundKeysIn(query.filter) };
    });
    return { ...result, dependsOn: noted };
  });
  noteAgain(read.dependsOn);
  return read;
}

/** The statement with this read's keys in place of those it was compiled with (bound-keys.ts). */
function withKeys(statement: CompiledQuery, compiledWith: readonly BoundKeys[], current: readonly BoundKeys[]): CompiledQuery {
  return compiledWith.length === 0 ? statement : CompiledQuery.raw(statement.sql, bindKeys(statement.parameters, compiledWith, current));
}

/** A statement compiled for running, refused when it binds more values than the protocol carries. */
function compileStatement(db: Kysely<any>, statement: CompiledRead['statement']): CompiledQuery {
  const query = statement.compile(db);
  if (query.parameters.length > MAX_PARAMETERS) {
    throw new InvalidQueryError(`The filter needs ${query.parameters.length} values, more than the ${MAX_PARAMETERS} one statement can carry; use _in lists instead of many conditions.`, { field: 'filter' });
  }
  return query;
}

/**
 * Reads that match text patterns (`search`, `_contains`, `_starts_with`, `_regex` …, at any depth). A prepared
 * statement's generic plan cannot see the pattern, so it never uses a trigram index for it: measured on
 * 100,000 articles with the advised indexes, `search=quasar` took 2,000 ms with the generic plan and 8 ms
 * with a plan made for the pattern (docs/performance.md "Large tables").
 */
const PATTERN_MATCH = /"(search|_n?i?contains|_n?i?starts_with|_n?i?ends_with|_regex)"/;

/** True when a read must be planned for its values each time rather than run as a prepared statement. */
function plannedPerRun(query: Query): boolean {
  return query.search !== undefined || PATTERN_MATCH.test(JSON.stringify([query.filter ?? null, query.deep ?? null]));
}

/**
 * Runs a compiled read, as a prepared statement when its plan does not depend on its values: its result
 * columns (data and counts) never change.
 */
async function execute(db: Kysely<any>, query: CompiledQuery, prepared = true): Promise<{ rows: unknown[] }> {
  if (prepared) markPreparable(query.sql);
  try {
    // A read's result is this request's alone: stop it when the client goes away.
    return await cancellable(() => db.executeQuery(query));
  } catch (error) {
    throw translateQueryError(error) ?? error;
  }
}

async function run<Data>(db: Kysely<any>, compiled: ReusableRead, query: Query): Promise<Rows<Data>> {
  const keys = compiled.keys.length === 0 ? compiled.keys : boundKeysIn(query.filter);
  const prepared = !plannedPerRun(query);
  const result = await execute(db, withKeys(compiled.statement, compiled.keys, keys), prepared);
  let rows = result.rows as Row<Data>[];
  let cursor: Pick<ReadMeta, 'next_cursor'> | undefined;
  if (compiled.cursor) {
    const page = takeCursorPage(rows, compiled.cursor);
    rows = page.rows;
    cursor = { next_cursor: page.next };
  }
  const data = rows.map((row) => row.data);
  const versioned = versionsOf(rows);
  if (compiled.meta.length === 0) return cursor ? { data, meta: cursor, ...versioned } : { data, ...versioned };
  const first = rows[0];
  if (first) return { data, meta: { ...metaOf(first, compiled), ...cursor }, ...versioned };
  const { rows: counts } = await execute(db, withKeys(compileStatement(db, compiled.counts()), compiled.keys, keys), prepared);
  return { data, meta: { ...metaOf((counts[0] ?? {}) as Partial<Row<Data>>, compiled), ...cursor }, ...versioned };
}

function versionsOf(rows: Row<unknown>[]): Pick<Rows<unknown>, 'versions'> {
  return rows.length > 0 && rows[0]!.version !== undefined ? { versions: rows.map((row) => row.version!) } : {};
}

/**
 * Reads items of `collection` by query in one statement (a second only for the counts of an empty page);
 * aggregate and groupBy queries included. Throws InvalidQueryError or ForbiddenError before anything runs
 * when the query is malformed or uses what the caller may not read.
 */
export async function readByQuery(db: Kysely<any>, schema: SchemaOverview, collection: string, query: Query, options: ReadOptions): Promise<ReadResult> {
  if (options.maxRelationalDepth !== undefined) assertRelationalDepth(query, options.maxRelationalDepth);
  return timed(schema, collection, query, options, () => run<Record<string, unknown>>(db, compile(db, schema, collection, query, { ...options, asText: false }), query));
}

/** Runs a read, recording its time under its shape when the caller keeps shape timings (index advice). */
async function timed<T>(schema: SchemaOverview, collection: string, query: Query, options: ReadOptions, work: () => Promise<T>): Promise<T> {
  const overview = options.shapes ? schema.collections[collection] : undefined;
  const shape = overview ? shapeOf(overview, query, options.policy) : null;
  if (!shape) return work();
  const started = performance.now();
  const result = await work();
  options.shapes!.record(shape, performance.now() - started);
  return result;
}

/**
 * The same read as readByQuery, with each item as the JSON text PostgreSQL built: a response can pass it
 * through without parsing and re-serialising every item (the dominant Node cost of a large page).
 */
export async function readJsonByQuery(db: Kysely<any>, schema: SchemaOverview, collection: string, query: Query, options: ReadOptions): Promise<{ data: string[]; meta?: ReadMeta; versions?: string[] }> {
  if (options.maxRelationalDepth !== undefined) assertRelationalDepth(query, options.maxRelationalDepth);
  return timed(schema, collection, query, options, () => run<string>(db, compile(db, schema, collection, query, { ...options, asText: true }), query));
}
