import type { CrudFilter, CrudSort, LogicalFilter, Pagination } from '@refinedev/core';

/** A filter in Tessera's query language (docs/query.md). */
export type TesseraFilter = Record<string, unknown>;

const OPERATORS: Record<string, string> = {
  eq: '_eq',
  eqs: '_eq',
  ne: '_neq',
  nes: '_neq',
  lt: '_lt',
  gt: '_gt',
  lte: '_lte',
  gte: '_gte',
  in: '_in',
  nin: '_nin',
  contains: '_icontains',
  containss: '_contains',
  ncontains: '_ncontains',
  ncontainss: '_ncontains',
  between: '_between',
  nbetween: '_nbetween',
  startswith: '_istarts_with',
  startswiths: '_starts_with',
  nstartswith: '_nstarts_with',
  nstartswiths: '_nstarts_with',
  endswith: '_iends_with',
  endswiths: '_ends_with',
  nendswith: '_nends_with',
  nendswiths: '_nends_with',
};

/** `author.name` + `{ _eq: 1 }` → `{ author: { name: { _eq: 1 } } }`. */
function nest(path: string, condition: unknown): TesseraFilter {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, key) => ({ [key]: inner }), condition) as TesseraFilter;
}

/** One Refine filter as a Tessera filter; `null`/`nnull` take no value. */
export function mapCrudFilter(filter: CrudFilter): TesseraFilter {
  if (filter.operator === 'or' || filter.operator === 'and') {
    return { [`_${filter.operator}`]: filter.value.map(mapCrudFilter) };
  }
  return mapLogicalFilter(filter as LogicalFilter);
}

function mapLogicalFilter(filter: LogicalFilter): TesseraFilter {
  if (filter.operator === 'null') return nest(filter.field, { _null: true });
  if (filter.operator === 'nnull') return nest(filter.field, { _nnull: true });
  const operator = OPERATORS[filter.operator];
  if (!operator) throw new Error(`Unsupported filter operator "${filter.operator}"`);
  return nest(filter.field, { [operator]: filter.value });
}

/** Refine keeps cleared filters with an empty value; they filter nothing. */
function hasValue(filter: CrudFilter): boolean {
  if (filter.operator === 'or' || filter.operator === 'and' || filter.operator === 'null' || filter.operator === 'nnull') return true;
  const value: unknown = filter.value;
  return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** Refine filters (and an extra raw Tessera filter) as one filter, or undefined when there is none. */
export function mapFilters(filters: CrudFilter[] | undefined, extra?: TesseraFilter | null): TesseraFilter | undefined {
  const parts = (filters ?? []).filter(hasValue).map(mapCrudFilter);
  if (extra && Object.keys(extra).length > 0) parts.push(extra);
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { _and: parts };
}

/** `[{ field: 'date', order: 'desc' }, …]` → `-date,…`. */
export function mapSorters(sorters: CrudSort[] | undefined): string | undefined {
  if (!sorters || sorters.length === 0) return undefined;
  return sorters.map((sorter) => (sorter.order === 'desc' ? `-${sorter.field}` : sorter.field)).join(',');
}

/** Refine pagination → `limit`/`page` (`limit=-1` when pagination is off). */
export function mapPagination(pagination: Pagination | undefined): { limit: number; page?: number } {
  if (pagination?.mode === 'off') return { limit: -1 };
  const pageSize = pagination?.pageSize ?? 10;
  const page = pagination?.currentPage ?? 1;
  if (pagination?.mode === 'client') return { limit: -1 };
  return { limit: pageSize, page };
}
