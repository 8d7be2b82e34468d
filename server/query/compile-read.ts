import { sql } from 'kysely';
import { ForbiddenError, InvalidQueryError } from '../errors.ts';
import type { CollectionOverview, SchemaOverview } from '../schema/overview.ts';
import { and, column, createContext, renderFrom, selectScope, type CompileContext, type Scope, type Sql } from './context.ts';
import { rowConditions } from './compile-filter.ts';
import { compileObject } from './compile-selection.ts';
import { compileTextObject } from './compile-text-shape.ts';
import { compileSortKeys, defaultSort } from './compile-sort.ts';
import type { MetaKey } from './constants.ts';
import { afterCondition, cursorColumn, cursorPage, isCursorRead, type CursorRead } from './keyset-cursor.ts';
import { limitClause, resolvePage } from './pagination.ts';
import { findCollection } from './schema-lookup.ts';
import { itemVersionSql } from './item-version.ts';
import { buildSelection, type SelectionTree } from './selection.ts';
import type { Query, ReadOptions } from './types.ts';

/** A compiled read: one statement returning `data` (and the counts asked for), and a fallback for counts. */
export interface CompiledRead {
  statement: Sql;
  meta: MetaKey[];
  /** Counts alone, for a page that came back empty (so its rows carry no counts). */
  counts(): Sql;
  /** For cursor reads (`after`, `meta=next_cursor`): each row carries `__cursor`, and one row more than the page is read. */
  cursor?: CursorRead;
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

/** True when rows are ordered by the primary key alone, which its index delivers already sorted. */
function orderedByKey(sort: readonly string[], primary: string): boolean {
  return sort.length === 0 || (sort.length === 1 && (sort[0] === primary || sort[0] === `-${primary}`));
}

/**
 * True when the sort is on plain columns of the collection and an index leads with the first of them: the
 * page subquery then reads rows in order from that index, so carrying whole rows out of it (instead of keys
 * joined back to the table) saves the join. Without such an index PostgreSQL sorts every matching row, and
 * sorting keys alone is cheaper than sorting whole rows.
 */
function indexedColumnSort(sort: readonly string[], collection: CollectionOverview): boolean {
  return (
    sort.length > 0 &&
    sort.every((item) => {
      const field = collection.fields[item.startsWith('-') ? item.slice(1) : item];
      return field !== undefined && !field.alias;
    }) &&
    ((first) => first.indexed || first.unique || first.primaryKey)(collection.fields[sort[0]!.replace(/^-/, '')]!)
  );
}

/** The item column: JSON, or its text when the caller passes the response through unparsed. */
export function dataColumn(object: Sql, options: Pick<ReadOptions, 'asText'>): Sql {
  return options.asText ? sql`${object}::text as data` : sql`${object} as data`;
}

/** The item's version beside its data, when the read asks for it. */
function versionColumn(collection: CollectionOverview, alias: string, options: Pick<ReadOptions, 'versionKey'>): Sql[] {
  return options.versionKey ? [sql`${itemVersionSql(collection, options.versionKey, alias)} as version`] : [];
}

/** An item: REST's JSON object, or its JSON text in the caller's shape (GraphQL) when asked for as text. */
function itemObject(ctx: CompileContext, scope: Scope, tree: SelectionTree, options: Pick<ReadOptions, 'asText' | 'textShape'>): Sql {
  return options.asText && options.textShape ? compileTextObject(ctx, scope, tree, options.textShape) : compileObject(ctx, scope, tree);
}

/**
 * Compiles a read into ONE statement where PostgreSQL builds every item as JSON: relations are correlated
 * subqueries (objects for m2o and m2a, arrays for o2m and m2m), the caller's row filter is applied to every
 * table read, and `filter_count` and `total_count` are scalar subqueries. (A window count, `count(*) over
 * ()`, would make PostgreSQL read and sort every matching row before the LIMIT: on 1,000,000 items a page
 * that an index serves in a millisecond took seconds; see docs/performance.md "Large tables".)
 *
 * The page is chosen first, in a subquery that filters, sorts and limits on keys and sort values only; the
 * JSON is then built for the rows of that page alone. Building it in the same SELECT as the ORDER BY would
 * make PostgreSQL build it for every matching row before sorting (measured: 44 ms instead of 2 ms for the
 * top 100 of 10,000). Pages in primary-key order without an offset skip that join: the key's index yields
 * rows already in order, so the JSON is built only for the rows the LIMIT lets through (and the join would
 * cost 0.2 ms).
 */
export function compileReadQuery(schema: SchemaOverview, collectionName: string, query: Query, options: ReadOptions): CompiledRead {
  const ctx = createContext(schema, options);
  const collection = rootCollection(ctx, collectionName);
  if (query.aggregate || query.groupBy) throw new InvalidQueryError('aggregate and groupBy are compiled by compileAggregateQuery.');
  const inner = selectScope(ctx, collection, 0);
  const where = rowConditions(ctx, inner, query, 'filter');
  const sort = query.sort ?? defaultSort(ctx, collection);
  const keys = compileSortKeys(ctx, inner, sort, 'sort');
  const asked = resolvePage(query, ctx.maxLimit, '', ctx.defaultLimit);
  const cursor: CursorRead | undefined = isCursorRead(query) ? { sort, limit: asked.limit, key: options.cursorKey } : undefined;
  if (cursor && query.after !== undefined) where.push(afterCondition(keys, cursor, query.after, collection));
  const page = cursor ? cursorPage(asked) : asked;
  const meta = query.meta ?? [];
  const counts = (columns: Sql[]) => {
    if (meta.includes('filter_count')) columns.push(sql`${countQuery(ctx, collection, query)} as filter_count`);
    if (meta.includes('total_count')) columns.push(sql`${countQuery(ctx, collection, {})} as total_count`);
    return columns;
  };
  const tree = buildSelection(ctx, collection, query.fields ?? ['*'], { alias: query.alias, deep: query.deep, depth: 0, prefix: '' });
  const innerOrder = keys.map((key) => sql`${key.value} ${sql.raw(key.direction)}`);

  let statement: Sql;
  // With an offset the JSON must not be built in the SELECT that skips: PostgreSQL projects every row the
  // LIMIT's offset skips (page 40,000 of a million items built 1,000,000 objects), so an offset page is chosen
  // in a subquery like any other sort.
  if (orderedByKey(sort, collection.primary) && page.offset === 0) {
    const columns = counts([dataColumn(itemObject(ctx, inner, tree, options), options), ...versionColumn(collection, inner.alias, options)]);
    if (cursor) columns.push(cursorColumn(keys.map((key) => key.value)));
    statement = sql`select ${sql.join(columns)} from ${renderFrom(inner.from)} where ${and(where)} order by ${sql.join(innerOrder)}${limitClause(page)}`;
  } else if (indexedColumnSort(sort, collection)) {
    // The page's rows leave the subquery whole, under the outer scope's alias, so the JSON (built outside)
    // covers the page's rows alone whatever plan PostgreSQL picks (measured on list_100 with its advised
    // index: 2,900 → 3,950 statements/s against the key join below).
    const pageQuery = sql`select ${sql.id(inner.alias)}.* from ${renderFrom(inner.from)} where ${and(where)} order by ${sql.join(innerOrder)}${limitClause(page)}`;
    const outer = selectScope(ctx, collection, 0);
    const columns = counts([dataColumn(itemObject(ctx, outer, tree, options), options), ...versionColumn(collection, outer.alias, options)]);
    const outerKeys = compileSortKeys(ctx, outer, sort, 'sort');
    if (cursor) columns.push(cursorColumn(outerKeys.map((key) => key.value)));
    const outerOrder = outerKeys.map((key) => sql`${key.value} ${sql.raw(key.direction)}`);
    const joins = outer.from.joins.length === 0 ? sql`` : sql` ${sql.join(outer.from.joins, sql` `)}`;
    statement = sql`select ${sql.join(columns)} from (${pageQuery}) as ${sql.id(outer.alias)}${joins} order by ${sql.join(outerOrder)}`;
  } else {
    const pageColumns = [sql`${column(inner, collection.primary)} as __key`, ...keys.map((key, index) => sql`${key.value} as ${sql.id(`__s${index}`)}`)];
    const pageQuery = sql`select ${sql.join(pageColumns)} from ${renderFrom(inner.from)} where ${and(where)} order by ${sql.join(innerOrder)}${limitClause(page)}`;

    const outer = selectScope(ctx, collection, 0);
    const columns = counts([dataColumn(itemObject(ctx, outer, tree, options), options), ...versionColumn(collection, outer.alias, options)]);
    if (cursor) columns.push(cursorColumn(keys.map((_, index) => sql.id('page', `__s${index}`))));
    const outerOrder = keys.map((key, index) => sql`${sql.id('page', `__s${index}`)} ${sql.raw(key.direction)}`);
    statement = sql`select ${sql.join(columns)} from ${renderFrom(outer.from)} join (${pageQuery}) as page on page.__key = ${column(outer, collection.primary)} order by ${sql.join(outerOrder)}`;
  }
  return { statement, meta, cursor, counts: () => compileCounts(createContext(schema, options), collection, query, meta) };
}
