import { InvalidQueryError } from '../errors.ts';
import type { DeepQuery, Filter, Query } from './types.ts';

/** Directus's words for a query past MAX_RELATIONAL_DEPTH; Directus clients match on them (issue 31). */
export const RELATIONAL_DEPTH_MESSAGE = 'Invalid query. Max relational depth exceeded.';

function refuse(parameter: string): never {
  throw new InvalidQueryError(RELATIONAL_DEPTH_MESSAGE, { field: parameter });
}

/** Segments of a field path: `author.books.title` is 3. */
function pathDepth(path: string): number {
  return path.replace(/^-/, '').split('.').length;
}

/** Field names a filter nests, operators (`_eq`, `_and`, `_some` …) not counted: `{ author: { name: { _eq } } }` is 2. */
export function filterDepth(filter: Filter | Filter[] | unknown): number {
  if (Array.isArray(filter)) return Math.max(0, ...filter.map(filterDepth));
  if (typeof filter !== 'object' || filter === null) return 0;
  let depth = 0;
  for (const [key, value] of Object.entries(filter)) {
    const nested = filterDepth(value) + (key.startsWith('_') ? 0 : 1);
    depth = Math.max(depth, typeof value === 'object' && value !== null ? nested : 0);
  }
  return depth;
}

/** Relations a `deep` query nests, each level's filter and sort paths counted below it. */
export function deepDepth(deep: Record<string, DeepQuery> | undefined): number {
  let depth = 0;
  for (const options of Object.values(deep ?? {})) {
    const below = Math.max(filterDepth(options.filter), ...(options.sort ?? []).map(pathDepth), deepDepth(options.deep));
    depth = Math.max(depth, 1 + below);
  }
  return depth;
}

/**
 * Refuses a query whose field paths, filter, sort or deep nest more than `maxDepth` segments deep, counted
 * as Directus counts them (its MAX_RELATIONAL_DEPTH), before any of it is compiled. An aggregate selects no
 * fields of its own; a grouping selects its groups.
 */
export function assertRelationalDepth(query: Query, maxDepth: number): void {
  const fields = query.groupBy ?? (query.aggregate && Object.keys(query.aggregate).length > 0 ? [] : (query.fields ?? []));
  if (fields.some((path) => pathDepth(path) > maxDepth)) refuse('fields');
  if (query.filter && filterDepth(query.filter) > maxDepth) refuse('filter');
  if (query.sort?.some((path) => pathDepth(path) > maxDepth)) refuse('sort');
  if (query.deep && deepDepth(query.deep) > maxDepth) refuse('deep');
}
