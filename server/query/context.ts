import { sql, type RawBuilder } from 'kysely';
import type { Accountability } from '../auth/accountability.ts';
import type { CollectionOverview, SchemaOverview } from '../schema/overview.ts';
import { QUERY_LIMIT_DEFAULT } from './constants.ts';
import { ALLOW_ALL_POLICY } from './policy.ts';
import { createBudget, type SelectionBudget } from './selection-budget.ts';
import type { ReadOptions, ReadPolicy } from './types.ts';
import { checkedTimeZone } from './time-zone.ts';

/** A fragment of SQL; values inside are bound parameters. */
export type Sql = RawBuilder<unknown>;

/** What every compile step shares: the schema, the caller, and the alias counter of one statement. */
export interface CompileContext {
  schema: SchemaOverview;
  policy: ReadPolicy;
  accountability: Accountability | null;
  /** The instant `$NOW` means for this statement. */
  now: Date;
  maxLimit: number | null;
  /** Rows a read returns when it names no limit (QUERY_LIMIT_DEFAULT). */
  defaultLimit: number;
  aliasCount: number;
  /** Fields and relations the selection may still add (QUERY_MAX_FIELDS, QUERY_MAX_RELATIONS). */
  budget: SelectionBudget;
  /** compileFilter calls in progress: bounds the recursion whatever the filter's source (MAX_JSON_DEPTH). */
  filterNesting: number;
  /** IANA zone the date functions of timestamps are taken in (validated; default UTC). */
  timeZone: string;
  /** The key cursors are checked with (ReadOptions.cursorKey), for nested lists' `_after`. */
  cursorKey: string | undefined;
}

/** The FROM of one SELECT: its table and the many-to-one joins its filters and sorts asked for. */
export interface FromClause {
  table: string;
  alias: string;
  joins: Sql[];
}

/** A table (or a joined related item) inside one SELECT, and the joins already made from it by path. */
export interface Scope {
  collection: CollectionOverview;
  alias: string;
  from: FromClause;
  joins: Map<string, Scope>;
  /** Relations crossed from the root to reach this table. */
  depth: number;
}

/** A context for compiling one statement. */
export function createContext(schema: SchemaOverview, options: ReadOptions): CompileContext {
  return {
    schema,
    policy: options.policy ?? ALLOW_ALL_POLICY,
    accountability: options.accountability,
    now: new Date(),
    maxLimit: options.maxLimit ?? null,
    defaultLimit: options.defaultLimit ?? QUERY_LIMIT_DEFAULT,
    aliasCount: 0,
    budget: createBudget(options.maxFields, options.maxRelations),
    filterNesting: 0,
    timeZone: checkedTimeZone(options.timeZone ?? 'UTC'),
    cursorKey: options.cursorKey,
  };
}

/** A table alias no other part of the statement uses. */
export function nextAlias(ctx: CompileContext): string {
  return `t${ctx.aliasCount++}`;
}

/** A scope that starts a new SELECT on `collection`. */
export function selectScope(ctx: CompileContext, collection: CollectionOverview, depth: number): Scope {
  const alias = nextAlias(ctx);
  return { collection, alias, from: { table: collection.collection, alias, joins: [] }, joins: new Map(), depth };
}

/** The FROM clause; render it after everything that may add joins to it has been compiled. */
export function renderFrom(from: FromClause): Sql {
  const base = sql`${sql.id(from.table)} as ${sql.id(from.alias)}`;
  return from.joins.length === 0 ? base : sql`${base} ${sql.join(from.joins, sql` `)}`;
}

/** A column of the scope's table. */
export function column(scope: Scope, field: string): Sql {
  return sql.id(scope.alias, field);
}

/** All conditions; `true` for none. */
export function and(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return sql`true`;
  return parts.length === 1 ? (parts[0] as Sql) : sql`(${sql.join(parts, sql` and `)})`;
}

/** Any of the conditions; `false` for none. */
export function or(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return sql`false`;
  return parts.length === 1 ? (parts[0] as Sql) : sql`(${sql.join(parts, sql` or `)})`;
}
