import type { Accountability } from '../auth/accountability.ts';
import type { AggregateFunction, MetaKey } from './constants.ts';
import type { QueryShapeStats } from '../indexes/query-shapes.ts';
import type { TextShape } from './compile-text-shape.ts';
import type { BoundKeys } from './bound-keys.ts';

export type { AggregateFunction, FieldFunction, FilterOperator, MetaKey } from './constants.ts';

/**
 * A value a filter operator compares with: a scalar, a list, or a dynamic variable such as `$NOW(-1 day)`;
 * internal reads by key pass their keys as BoundKeys (bound-keys.ts).
 */
export type FilterOperand = string | number | boolean | null | ReadonlyArray<string | number | boolean | null> | BoundKeys;

/**
 * A filter as nested objects: `{ title: { _eq: 'x' } }`, relations nest (`{ author: { name: { _eq: 'x' } } }`),
 * `_and`/`_or` hold lists of filters, and `_some`/`_none` quantify over one-to-many relations.
 */
export interface Filter {
  [key: string]: Filter | Filter[] | FilterOperand;
}

/** Aggregate functions and the fields each applies to: `{ sum: ['price'] }`; `count` also takes `*`. */
export type Aggregate = Partial<Record<AggregateFunction, string[]>>;

/** Query options for one relation (`deep[comments][_limit]=5`), with deeper relations under `deep`. */
export interface DeepQuery {
  filter?: Filter;
  sort?: string[];
  limit?: number;
  offset?: number;
  page?: number;
  search?: string;
  /** `_after`: a cursor of the related collection with the same sort; the list starts after its item (keyset-cursor.ts). */
  after?: string;
  deep?: Record<string, DeepQuery>;
}

/** A parsed read query: the AST every read of the query language goes through. */
export interface Query {
  /** Field paths; absent means `*`. */
  fields?: string[];
  filter?: Filter;
  /** Field paths, `-` prefixed for descending. */
  sort?: string[];
  /** Rows to return; `-1` means all (capped by `maxLimit`). */
  limit?: number;
  offset?: number;
  /** 1-based page; sets the offset to `(page - 1) * limit`. */
  page?: number;
  /** A cursor (`meta.next_cursor` of the previous page): the page starts after the item it names (keyset-cursor.ts). */
  after?: string;
  /** `meta=next_cursor`: return the cursor of the next page, as every read with `after` does. */
  nextCursor?: boolean;
  search?: string;
  aggregate?: Aggregate;
  groupBy?: string[];
  /** Per-relation query options keyed by relational field (or alias). */
  deep?: Record<string, DeepQuery>;
  /** Extra output keys naming a field of the root collection: `{ new_key: 'field' }`. */
  alias?: Record<string, string>;
  meta?: MetaKey[];
}

/**
 * What one caller may read: the permissions engine implements it; the compiler applies `itemFilter` to every
 * table it reads (root, relations, relational filters, aggregates) and refuses fields outside `allowedFields`.
 * A filter of `{ _or: [] }` matches nothing.
 */
export interface ReadPolicy {
  /** Rows of `collection` the caller may see, or null for all of them. */
  itemFilter(collection: string): Filter | null;
  /** Fields of `collection` the caller may read, use in filters, sort, search and aggregates. */
  allowedFields(collection: string): '*' | ReadonlySet<string>;
}

/** Options every read takes. */
export interface ReadOptions {
  /** Who is reading: resolves `$CURRENT_USER` and `$CURRENT_ROLE`. */
  accountability: Accountability | null;
  /** Defaults to a policy that allows everything. */
  policy?: ReadPolicy;
  /** Upper bound for `limit` (and what `-1` means), when set. */
  maxLimit?: number;
  /** Rows a root read returns without `limit` (default 100); related lists keep their own default. */
  defaultLimit?: number;
  /** Output fields a selection may hold once wildcards are expanded (default QUERY_MAX_FIELDS_DEFAULT). */
  maxFields?: number;
  /** Related collections a selection may read (default QUERY_MAX_RELATIONS_DEFAULT). */
  maxRelations?: number;
  /** MAX_RELATIONAL_DEPTH: segments a path of the query's fields, filter, sort or deep may have; unset: no check before compiling. */
  maxRelationalDepth?: number;
  /** Return each item as JSON text (for responses passed through without parsing) instead of an object. */
  asText?: boolean;
  /** With asText: each item as JSON text in this shape (GraphQL's keys and values) instead of REST's JSON. */
  textShape?: TextShape;
  /** Where the read's time is recorded by its shape (sort, filter and search columns) for index advice. */
  shapes?: QueryShapeStats;
  /**
   * Who the compiled statement may be reused for (server/query/compiled-reads.ts): callers with the same
   * value read with the same rules. Absent or null: compile for this read alone.
   */
  reuseIdentity?: string | null;
  /** IANA time zone the date functions (`year(date)` …) of timestamp fields use; default UTC. */
  timeZone?: string;
  /** With it, each root item's version (item-version.ts, hashed with this key) comes back beside it. */
  versionKey?: string;
  /** The key `after` cursors are signed and checked with (keyset-cursor.ts cursorKey); unsigned without it. */
  cursorKey?: string;
}

/** Counts returned under `meta`. */
export interface ReadMeta {
  total_count?: number;
  filter_count?: number;
  /** The `after` of the next page, null on the last page (cursor reads only). */
  next_cursor?: string | null;
}

/** The result of a read: items in API form, and the counts asked for. */
export interface ReadResult {
  data: Record<string, unknown>[];
  meta?: ReadMeta;
  /** Each item's version, in the order of `data`, when the read asked for them (ReadOptions.versionKey). */
  versions?: string[];
}
