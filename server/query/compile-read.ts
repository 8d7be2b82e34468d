import { sql } from 'kysely';
import { ForbiddenError, InvalidQueryError } from '../errors.ts';
import type { CollectionOverview, SchemaOverview } from '../schema/overview.ts';
import { and, createContext, renderFrom, selectScope, type CompileContext, type Sql } from './context.ts';
import { rowConditions } from './compile-filter.ts';
import { compileObject } from './compile-selection.ts';
import { compileSort, defaultSort } from './compile-sort.ts';
import type { MetaKey } from './constants.ts';
import { limitClause, resolvePage } from './pagination.ts';
import { findCollection } from './schema-lookup.ts';
import { buildSelection } from './selection.ts';
import type { Query, ReadOptions } from './types.ts';

/** A compiled read: one statement returning `data` (and the counts asked for), and a fallback for counts. */
export interface CompiledRead {
  statement: Sql;
  meta: MetaKey[];
  /** Counts alone, for a page that came back empty (so its rows carry no counts). */
  counts(): Sql;
}

/** The collection a read starts from; unknown collections and unreadable ones are indistinguishable (403). */
export function rootCollection(ctx: CompileContext, name: string): CollectionOverview {
  const collection = findCollection(ctx.schema, name);
  const allowed = collection ? ctx.policy.allowedFields(name) : null;
  if (!collection || (allowed !== '*' && (allowed === null || allowed.size === 0))) {
    throw new ForbiddenError(`You don't have permission to access collection "${name}", or it does not exist.`);
  }
  return collection;
}

/** `(select count(*) …)` over the caller's rows of the collection, narrowed by the query's filter and search when given. */
export function countQuery(ctx: CompileContext, collection: CollectionOverview, query: Pick<Query, 'filter' | 'search'>): Sql {
  const scope = selectScope(ctx, collection, 0);
  const conditions = rowConditions(ctx, scope, query, 'filter');
  return sql`(select count(*) from ${renderFrom(scope.from)} where ${and(conditions)})`;
}

/** A statement returning only the counts `meta` asks for. */
export function compileCounts(ctx: CompileContext, collection: CollectionOverview, query: Query, meta: MetaKey[]): Sql {
  const columns = meta.map((key) => (key === 'total_count' ? sql`${countQuery(ctx, collection, {})} as total_count` : sql`${countQuery(ctx, collection, query)} as filter_count`));
  return sql`select ${sql.join(columns)}`;
}

/**
 * Compiles a read into ONE statement where PostgreSQL builds every item as JSON: relations are correlated
 * subqueries (objects for m2o and m2a, arrays for o2m and m2m), the caller's row filter is applied to every
 * table read, `filter_count` is a window count and `total_count` a scalar subquery.
 */
export function compileReadQuery(schema: SchemaOverview, collectionName: string, query: Query, options: ReadOptions): CompiledRead {
  const ctx = createContext(schema, options);
  const collection = rootCollection(ctx, collectionName);
  if (query.aggregate || query.groupBy) throw new InvalidQueryError('aggregate and groupBy are read with readAggregate.');
  const scope = selectScope(ctx, collection, 0);
  const tree = buildSelection(ctx, collection, query.fields ?? ['*'], { alias: query.alias, deep: query.deep, depth: 0, prefix: '' });
  const where = rowConditions(ctx, scope, query, 'filter');
  const order = compileSort(ctx, scope, query.sort ?? defaultSort(ctx, collection), 'sort');
  const page = resolvePage(query, ctx.maxLimit);
  const meta = query.meta ?? [];
  const columns = [sql`${compileObject(ctx, scope, tree)} as data`];
  if (meta.includes('filter_count')) columns.push(sql`count(*) over () as filter_count`);
  if (meta.includes('total_count')) columns.push(sql`${countQuery(ctx, collection, {})} as total_count`);
  const statement = sql`select ${sql.join(columns)} from ${renderFrom(scope.from)} where ${and(where)} order by ${sql.join(order)}${limitClause(page)}`;
  return { statement, meta, counts: () => compileCounts(createContext(schema, options), collection, query, meta) };
}
