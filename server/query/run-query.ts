import type { Kysely } from 'kysely';
import type { SchemaOverview } from '../schema/overview.ts';
import { compileAggregateQuery } from './compile-aggregate.ts';
import { compileReadQuery, type CompiledRead } from './compile-read.ts';
import type { Query, ReadMeta, ReadOptions, ReadResult } from './types.ts';

interface Row {
  data: Record<string, unknown>;
  total_count?: string | number;
  filter_count?: string | number;
}

function metaOf(row: Partial<Row>, compiled: CompiledRead): ReadMeta {
  const meta: ReadMeta = {};
  for (const key of compiled.meta) meta[key] = Number(row[key] ?? 0);
  return meta;
}

async function run(db: Kysely<any>, compiled: CompiledRead): Promise<ReadResult> {
  const { rows } = await compiled.statement.execute(db);
  const data = (rows as Row[]).map((row) => row.data);
  if (compiled.meta.length === 0) return { data };
  const first = rows[0] as Row | undefined;
  if (first) return { data, meta: metaOf(first, compiled) };
  const { rows: counts } = await compiled.counts().execute(db);
  return { data, meta: metaOf((counts[0] ?? {}) as Partial<Row>, compiled) };
}

/**
 * Reads items of `collection` by query in one statement (a second only for the counts of an empty page).
 * Aggregate and groupBy queries go to readAggregate. Throws InvalidQueryError or ForbiddenError before
 * anything runs when the query is malformed or uses what the caller may not read.
 */
export async function readByQuery(db: Kysely<any>, schema: SchemaOverview, collection: string, query: Query, options: ReadOptions): Promise<ReadResult> {
  if (query.aggregate || query.groupBy) return readAggregate(db, schema, collection, query, options);
  return run(db, compileReadQuery(schema, collection, query, options));
}

/** Runs `aggregate`/`groupBy` (with filter, search, sort by group, limit, meta) in one statement. */
export async function readAggregate(db: Kysely<any>, schema: SchemaOverview, collection: string, query: Query, options: ReadOptions): Promise<ReadResult> {
  return run(db, compileAggregateQuery(schema, collection, query, options));
}
