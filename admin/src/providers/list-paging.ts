import type { QueryValue } from './http-client.ts';

/**
 * Paging a list of a million items (docs/performance.md "Large tables"): the exact count (`filter_count`)
 * costs a pass over every matching item, so a list asks for it when its filter or search changes, not on
 * every page; and the next page continues from the previous page's cursor (`after`), which PostgreSQL
 * serves from the sort's index however deep the page, where `page=40000` would read 40,000 pages first.
 * Jumping to a page no cursor leads to still uses `page`.
 */

/** How long a count is reused for an unchanged filter: writes through the admin forget it sooner. */
const COUNT_TTL_MS = 60_000;
/** Lists (filter, sort, page size) per resource whose counts and cursors are kept, least recently used first out. */
const MAX_LISTS = 50;

interface ListMemory {
  /** By filter and search. */
  counts: Map<string, { total: number; at: number }>;
  /** By filter, search, sort, page size and fields: the cursor leading to each page. */
  cursors: Map<string, Map<number, string>>;
}

const byResource = new Map<string, ListMemory>();

type Query = Record<string, QueryValue>;

function memoryOf(resource: string): ListMemory {
  let memory = byResource.get(resource);
  if (!memory) byResource.set(resource, (memory = { counts: new Map(), cursors: new Map() }));
  return memory;
}

/** What the count depends on: the filter and search. */
function countKey(query: Query): string {
  return JSON.stringify([query.filter ?? null, query.search ?? null]);
}

/** What a page's cursor depends on: the count's key plus the sort, the page size and the fields. */
function cursorKey(query: Query): string {
  return JSON.stringify([countKey(query), query.sort ?? null, query.limit ?? null, query.fields ?? null]);
}

/** Keeps `value` under `key` as the most recently used, dropping the least recently used past MAX_LISTS. */
function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_LISTS) map.delete(map.keys().next().value!);
}

/** The request a list page sends: without the count when it is known, with `after` instead of `page` when a cursor leads there. */
export function planListQuery(resource: string, query: Query, now = Date.now()): { query: Query; knownTotal: number | null } {
  const memory = byResource.get(resource);
  const counted = memory?.counts.get(countKey(query));
  const knownTotal = counted && now - counted.at < COUNT_TTL_MS ? counted.total : null;
  const page = query.page;
  if (typeof page !== 'number' || typeof query.limit !== 'number' || query.limit <= 0) return { query, knownTotal };
  const meta = ['next_cursor', ...(knownTotal === null ? ['filter_count'] : [])].join(',');
  const after = page > 1 ? memory?.cursors.get(cursorKey(query))?.get(page) : undefined;
  if (!after) return { query: { ...query, meta }, knownTotal };
  const continued: Query = { ...query, after, meta };
  delete continued.page;
  return { query: continued, knownTotal };
}

/** Keeps what an answer tells about the next request of the same list: the count and the next page's cursor. */
export function learnListAnswer(resource: string, query: Query, meta: { filter_count?: number; next_cursor?: string | null } | undefined, now = Date.now()): void {
  const memory = memoryOf(resource);
  if (typeof meta?.filter_count === 'number') remember(memory.counts, countKey(query), { total: meta.filter_count, at: now });
  if (typeof meta?.next_cursor !== 'string' || typeof query.page !== 'number') return;
  const key = cursorKey(query);
  remember(memory.cursors, key, (memory.cursors.get(key) ?? new Map<number, string>()).set(query.page + 1, meta.next_cursor));
}

/**
 * After a write to `path` (`/items/articles/5`, `/utils/import/articles`, `/users`): forgets the counts and
 * cursors of every resource it names as a path segment, whose items or order may have changed.
 */
export function forgetListPaging(path: string): void {
  const segments = new Set(path.split('?')[0]!.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }));
  for (const resource of byResource.keys()) if (segments.has(resource)) byResource.delete(resource);
}
