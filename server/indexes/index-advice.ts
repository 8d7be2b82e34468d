import type { CollectionOverview, FieldOverview, SchemaOverview } from '../schema/overview.ts';
import { TEXT_TYPES } from '../query/cast-value.ts';
import { indexNameOf, servedBy, type IndexFacts, type IndexSpec } from './managed-indexes.ts';
import { p95, type QueryShape, type ShapeStats } from './query-shapes.ts';

/** Columns at most in one advised btree: past three, an index costs writes more than it saves reads. */
const MAX_COLUMNS = 3;

/** One piece of advice: a slow read shape, its timings, and an index that would serve it. */
export interface IndexAdvice {
  collection: string;
  shape: { sort: string[]; filter: QueryShape['filter']; search: boolean };
  count: number;
  mean_ms: number;
  p95_ms: number;
  max_ms: number;
  last_seen: string;
  /** What POST /utils/index-advice/apply takes to build it. */
  index: { name: string; kind: IndexSpec['kind']; columns: string[] };
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Btree can hold it: not an alias, not a json column (json has no btree operator class). */
const btreeable = (field: FieldOverview | undefined): field is FieldOverview => field !== undefined && !field.alias && field.type !== 'json';
/** Trigram can serve it: a searchable text column. */
const trigrammable = (field: FieldOverview | undefined): field is FieldOverview => field !== undefined && field.searchable && TEXT_TYPES.has(field.type);

/**
 * The indexes that would serve a shape. Btree: equality-filtered columns first, then the sort columns (or
 * the one range-filtered column when nothing is sorted), so PostgreSQL can find the rows and read them in
 * order. Trigram (GIN, gin_trgm_ops): every text column a `?search=` or a `_contains` filter scans; ILIKE
 * '%term%' is served by it.
 */
export function indexesFor(shape: QueryShape, collection: CollectionOverview): IndexSpec[] {
  const specs: IndexSpec[] = [];
  const equality = Object.entries(shape.filter).filter(([, use]) => use === 'equality').map(([name]) => name);
  const range = Object.entries(shape.filter).filter(([, use]) => use === 'range').map(([name]) => name);
  const sort = shape.sort.map((entry) => (entry.startsWith('-') ? entry.slice(1) : entry));
  const ordered = [...equality, ...(sort.length > 0 ? sort : range.slice(0, 1))];
  const columns = [...new Set(ordered)].filter((name) => btreeable(collection.fields[name])).slice(0, MAX_COLUMNS);
  if (columns.length > 0) specs.push({ table: collection.collection, columns, kind: 'btree' });
  const contains = Object.entries(shape.filter).filter(([, use]) => use === 'contains').map(([name]) => name);
  const searched = shape.search ? Object.values(collection.fields).filter((field) => trigrammable(field) && !field.concealed).map((field) => field.field) : [];
  for (const name of new Set([...contains, ...searched])) {
    if (trigrammable(collection.fields[name])) specs.push({ table: collection.collection, columns: [name], kind: 'trigram' });
  }
  return specs;
}

/**
 * Advice for the read shapes whose 95th-percentile time reaches `thresholdMs`: each index that would serve
 * one and does not exist yet (nor any index whose leading columns are the same). Slowest first.
 */
export function adviseIndexes(stats: readonly ShapeStats[], schema: SchemaOverview, indexes: readonly IndexFacts[], thresholdMs: number, only?: string): IndexAdvice[] {
  const advice: IndexAdvice[] = [];
  for (const entry of stats) {
    const { shape } = entry;
    if (only !== undefined && shape.collection !== only) continue;
    const collection = schema.collections[shape.collection];
    const slowest = p95(entry);
    if (!collection || collection.system || !collection.table || slowest < thresholdMs) continue;
    for (const spec of indexesFor(shape, collection)) {
      if (servedBy(indexes, spec)) continue;
      advice.push({
        collection: shape.collection,
        shape: { sort: shape.sort, filter: shape.filter, search: shape.search },
        count: entry.count,
        mean_ms: round(entry.totalMs / entry.count),
        p95_ms: round(slowest),
        max_ms: round(entry.maxMs),
        last_seen: new Date(entry.lastSeen).toISOString(),
        index: { name: indexNameOf(spec), kind: spec.kind, columns: spec.columns },
      });
    }
  }
  return advice.sort((a, b) => b.p95_ms - a.p95_ms);
}
