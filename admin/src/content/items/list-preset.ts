/**
 * A collection list's view as a tessera_presets row (Directus 10's shape: `layout`, `layout_query` keyed by
 * layout id (`tabular { fields, sort, limit, page }`, `cards { sort, limit, page }` …), `layout_options`
 * keyed by layout id, `search`, `filter`), and back. Pure logic.
 */
import type { TesseraFilter } from '../../providers/query-mapping.ts';
import { needsValue, toFilter, type FilterGroup, type FilterRule } from '../filter-builder/filter-model.ts';

/** What a list view remembers. */
export interface ListView {
  fields: string[];
  sort: Array<{ field: string; order: 'asc' | 'desc' }>;
  pageSize: number;
  /** The page shown; absent: the first. */
  page?: number;
  search: string;
  filter: FilterGroup;
  /** The layout's id (`tabular`, `map`, an extension's); absent: the table. */
  layout?: string;
  /** Each layout's own settings, by layout id. */
  layoutOptions?: Record<string, Record<string, unknown>>;
}

/** A tessera_presets row as the list reads it. */
export interface PresetRow {
  id: number;
  bookmark: string | null;
  user: string | null;
  role: string | null;
  collection: string;
  search: string | null;
  layout: string | null;
  layout_query: Record<string, LayoutQueryEntry | undefined> | null;
  layout_options?: Record<string, Record<string, unknown>> | null;
  filter: TesseraFilter | null;
}

/** One layout's query in `layout_query` (Directus's names). */
export interface LayoutQueryEntry {
  fields?: string[];
  sort?: string[];
  limit?: number;
  page?: number;
}

export const PAGE_SIZES = [25, 50, 100];
const TABLE = 'tabular';

/** The row's columns for a view (user, role and bookmark are the caller's to add). */
export function toPresetFields(view: ListView): Pick<PresetRow, 'layout' | 'layout_query' | 'layout_options' | 'search' | 'filter'> {
  const layout = view.layout ?? TABLE;
  const query: LayoutQueryEntry = { sort: view.sort.map((entry) => `${entry.order === 'desc' ? '-' : ''}${entry.field}`), limit: view.pageSize, ...(view.page && view.page > 1 ? { page: view.page } : {}) };
  return {
    layout,
    // The columns stay under `tabular` whichever layout shows the items; the shown layout's sort and paging under its own id too.
    layout_query: { [TABLE]: { fields: view.fields, ...query }, ...(layout === TABLE ? {} : { [layout]: query }) },
    ...(view.layoutOptions && Object.keys(view.layoutOptions).length > 0 ? { layout_options: view.layoutOptions } : {}),
    search: view.search || null,
    filter: toFilter(view.filter),
  };
}

/** A stored view, keeping only what still exists (fields of the collection, a known page size). */
export function fromPreset(row: PresetRow, available: readonly string[]): Partial<ListView> {
  const tabular = row.layout_query?.[TABLE] ?? {};
  const query = (row.layout && row.layout_query?.[row.layout]) || tabular;
  const view: Partial<ListView> = {};
  const fields = (Array.isArray(tabular.fields) ? tabular.fields : []).filter((field) => available.includes(field));
  if (fields.length > 0) view.fields = fields;
  if (Array.isArray(query.sort)) {
    view.sort = query.sort
      .filter((entry): entry is string => typeof entry === 'string')
      .map((entry) => ({ field: entry.replace(/^-/, ''), order: entry.startsWith('-') ? ('desc' as const) : ('asc' as const) }))
      .filter((entry) => available.includes(entry.field));
  }
  if (query.limit && PAGE_SIZES.includes(query.limit)) view.pageSize = query.limit;
  if (Number.isInteger(query.page) && query.page! > 1) view.page = query.page;
  if (row.search) view.search = row.search;
  if (row.layout && row.layout !== 'tabular') view.layout = row.layout;
  if (row.layout_options && typeof row.layout_options === 'object' && !Array.isArray(row.layout_options)) view.layoutOptions = row.layout_options;
  const group = row.filter ? fromFilter(row.filter) : null;
  if (group) view.filter = group;
  return view;
}

/** The default view: the user's own preset, else their role's, else the global one (bookmarks aside). */
export function pickDefault(rows: readonly PresetRow[], user: string | null, role: string | null): PresetRow | null {
  const defaults = rows.filter((row) => row.bookmark === null);
  return defaults.find((row) => user !== null && row.user === user) ?? defaults.find((row) => row.user === null && role !== null && row.role === role) ?? defaults.find((row) => row.user === null && row.role === null) ?? null;
}

/**
 * The filter builder's state for a filter it could have made (conditions on fields, joined by one
 * `_and` or `_or`); null for any other shape, which the builder cannot show.
 */
export function fromFilter(filter: TesseraFilter): FilterGroup | null {
  const keys = Object.keys(filter);
  const logic = keys.length === 1 && (keys[0] === '_and' || keys[0] === '_or') ? (keys[0] === '_and' ? 'and' : 'or') : null;
  const parts = logic ? ((filter as Record<string, unknown>)[`_${logic}`] as unknown[]) : [filter];
  if (!Array.isArray(parts)) return null;
  const rules: FilterRule[] = [];
  for (const part of parts) {
    const rule = ruleOf(part, []);
    if (!rule) return null;
    rules.push(rule);
  }
  return { logic: logic ?? 'and', rules };
}

const QUANTIFIERS = new Set(['_some', '_none']);

function ruleOf(part: unknown, path: string[]): FilterRule | null {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return null;
  const entries = Object.entries(part as Record<string, unknown>);
  if (entries.length !== 1) return null;
  const [key, value] = entries[0]!;
  // `_some`/`_none` quantify a one-to-many path (`comments._some.approved`): part of the field, not the operator.
  if (key.startsWith('_') && !(QUANTIFIERS.has(key) && path.length > 0 && typeof value === 'object')) {
    if (path.length === 0) return null;
    const shown = !needsValue(key) ? '' : Array.isArray(value) ? value.join(', ') : value;
    return { field: path.join('.'), operator: key, value: shown };
  }
  return ruleOf(value, [...path, key]);
}
