import type { Config } from '../config/index.ts';
import type { CollectionOverview } from '../schema/overview.ts';
import type { Filter, Query, ReadPolicy } from '../query/types.ts';

/** How a filter uses a column: equality (`_eq`, `_in`, `_null` …), a range (`_gt`, `_between` …) or a substring match. */
export type FilterUse = 'equality' | 'range' | 'contains';

/** The part of a read an index can serve: which columns it filters and sorts on, and whether it searches. */
export interface QueryShape {
  collection: string;
  /** Sort columns of the root collection, in order; `-` for descending. */
  sort: string[];
  /** Filtered columns of the root collection (the query's filter and the caller's permission rule), by name. */
  filter: Record<string, FilterUse>;
  search: boolean;
}

/** Timings of one shape. */
export interface ShapeStats {
  shape: QueryShape;
  count: number;
  totalMs: number;
  maxMs: number;
  /** The last few durations, for a percentile that follows recent behaviour. */
  recent: number[];
  lastSeen: number;
}

const EQUALITY = new Set(['_eq', '_in', '_null', '_nnull', '_empty', '_nempty', '_neq', '_nin']);
const RANGE = new Set(['_gt', '_gte', '_lt', '_lte', '_between', '_nbetween']);
const CONTAINS = new Set(['_contains', '_icontains', '_ncontains', '_starts_with', '_istarts_with', '_ends_with', '_iends_with']);
const LOGICAL = new Set(['_and', '_or']);
const USE_RANK: Readonly<Record<FilterUse, number>> = { equality: 0, range: 1, contains: 2 };
/** Durations kept per shape for the percentile. */
const RECENT = 64;

function filterUse(operators: Record<string, unknown>): FilterUse | null {
  const names = Object.keys(operators);
  if (names.some((name) => CONTAINS.has(name))) return 'contains';
  if (names.some((name) => RANGE.has(name))) return 'range';
  if (names.some((name) => EQUALITY.has(name))) return 'equality';
  return null;
}

/** Columns of the root collection a filter tests; relational paths and functions are left out. */
function collectFilter(filter: Filter | null | undefined, collection: CollectionOverview, into: Record<string, FilterUse>, depth = 0): void {
  if (!filter || typeof filter !== 'object' || depth > 8) return;
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL.has(key)) {
      if (Array.isArray(value)) for (const part of value) collectFilter(part as Filter, collection, into, depth + 1);
      continue;
    }
    const field = collection.fields[key];
    if (!field || field.alias || field.primaryKey || !value || typeof value !== 'object' || Array.isArray(value)) continue;
    const use = filterUse(value as Record<string, unknown>);
    // A column filtered several ways is recorded by the use an index serves least well (contains > range > equality).
    if (use && (!into[key] || USE_RANK[use] > USE_RANK[into[key]!])) into[key] = use;
  }
}

/**
 * The shape of a read of `collection`, or null when no index could help it: nothing sorted, filtered or
 * searched beyond the primary key (item-by-key reads), or an aggregate.
 */
export function shapeOf(collection: CollectionOverview, query: Query, policy: ReadPolicy | undefined): QueryShape | null {
  if (collection.system || query.aggregate || query.groupBy) return null;
  const sort = (query.sort ?? []).filter((entry) => {
    const name = entry.startsWith('-') ? entry.slice(1) : entry;
    const field = collection.fields[name];
    return field !== undefined && !field.alias;
  });
  const filter: Record<string, FilterUse> = Object.create(null);
  collectFilter(query.filter, collection, filter);
  collectFilter(policy?.itemFilter(collection.collection), collection, filter);
  const search = typeof query.search === 'string' && query.search.length > 0;
  if (sort.length === 0 && Object.keys(filter).length === 0 && !search) return null;
  return { collection: collection.collection, sort, filter: Object.fromEntries(Object.entries(filter).sort(([a], [b]) => (a < b ? -1 : 1))), search };
}

function keyOf(shape: QueryShape): string {
  return JSON.stringify([shape.collection, shape.sort, shape.filter, shape.search]);
}

/** A bounded in-memory aggregate of read timings per shape; the least recently seen shape goes first. */
export class QueryShapeStats {
  readonly #shapes = new Map<string, ShapeStats>();
  readonly #max: number;

  constructor(maxShapes: number) {
    this.#max = maxShapes;
  }

  record(shape: QueryShape, ms: number): void {
    const key = keyOf(shape);
    const stats = this.#shapes.get(key) ?? { shape, count: 0, totalMs: 0, maxMs: 0, recent: [], lastSeen: 0 };
    stats.count += 1;
    stats.totalMs += ms;
    stats.maxMs = Math.max(stats.maxMs, ms);
    stats.recent.push(ms);
    if (stats.recent.length > RECENT) stats.recent.shift();
    stats.lastSeen = Date.now();
    // Re-inserting keeps the Map in least-recently-seen order.
    this.#shapes.delete(key);
    this.#shapes.set(key, stats);
    if (this.#shapes.size > this.#max) this.#shapes.delete(this.#shapes.keys().next().value!);
  }

  all(): ShapeStats[] {
    return [...this.#shapes.values()];
  }

  clear(): void {
    this.#shapes.clear();
  }
}

/** The 95th percentile of the recent durations (nearest rank). */
export function p95(stats: ShapeStats): number {
  const sorted = [...stats.recent].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

/**
 * One aggregate per configured instance: the config object is what every service context of an app
 * shares, so the items service and the advice endpoint find the same one without threading it through
 * every context builder (tests run several apps in one process).
 */
const byConfig = new WeakMap<Config, QueryShapeStats>();

export function queryShapesFor(config: Config): QueryShapeStats {
  let stats = byConfig.get(config);
  if (!stats) {
    stats = new QueryShapeStats(config.indexAdvice?.maxShapes ?? 500);
    byConfig.set(config, stats);
  }
  return stats;
}
