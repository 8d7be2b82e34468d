import { useCallback, useEffect, useRef, useState } from 'react';
import { resolveText } from '../../i18n/custom-texts.ts';
import { apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { resourcePath } from '../../providers/resource-paths.ts';
import { renderTemplate } from '../display-template.ts';
import { isToMany } from '../field-kinds.ts';
import { choicesOf } from '../interfaces/dropdown.tsx';
import type { RelatedTarget } from '../interfaces/related.ts';
import type { FieldInfo } from '../schema/types.ts';

type Item = Record<string, unknown>;

/** At most this many cards are read per column; the column's count says when it holds more. */
export const KANBAN_COLUMN_LIMIT = 50;

/** One column of the board: the group field's value it holds (null: items without one). */
export interface KanbanColumn {
  value: string | number | null;
  title: string;
  items: Item[];
  total: number;
}

/** Whether a field can group a board: a dropdown or status (choices) or a many-to-one. */
export function canGroupBy(field: FieldInfo, target: RelatedTarget | null): boolean {
  if (isToMany(field)) return false;
  if (target) return !target.junction;
  return choicesOf(field.meta?.options ?? {}).length > 0 && field.type !== 'json' && field.type !== 'csv';
}

/** The filter of one column: its value, or no value for the column of ungrouped items. */
export function columnFilter(groupField: string, value: string | number | null): Record<string, unknown> {
  return { [groupField]: value === null ? { _null: true } : { _eq: value } };
}

interface ColumnsQuery {
  collection: string;
  groupField: FieldInfo;
  target: RelatedTarget | null;
  /** For a many-to-one: the related collection's field that names a column (Directus's `groupTitle`); absent, its template. */
  groupTitle: string | null;
  fields: string[];
  filter: Record<string, unknown> | null;
  search: string;
  sort: string[];
  locale: string;
}

async function readColumnValues(query: ColumnsQuery): Promise<Array<{ value: string | number; title: string }>> {
  const { target, groupField, groupTitle, locale } = query;
  if (!target) return choicesOf(groupField.meta?.options ?? {}).map((choice) => ({ value: choice.value, title: resolveText(choice.label, locale) }));
  const template = groupTitle ? `{{${groupTitle}}}` : target.template;
  const fields = [target.primaryKey, ...[...template.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1]!)];
  const body = await apiRequest<{ data: Item[] }>(resourcePath(target.collection), { query: { fields: [...new Set(fields)], limit: KANBAN_COLUMN_LIMIT } });
  return (body?.data ?? []).map((item) => ({ value: item[target.primaryKey] as string | number, title: renderTemplate(template, item, target.primaryKey) }));
}

async function readColumn(query: ColumnsQuery, value: string | number | null): Promise<{ items: Item[]; total: number }> {
  const own = columnFilter(query.groupField.field, value);
  const body = await apiRequest<{ data: Item[]; meta?: { filter_count?: number } }>(resourcePath(query.collection), {
    query: { fields: query.fields, filter: query.filter ? { _and: [query.filter, own] } : own, search: query.search || undefined, sort: query.sort.length > 0 ? query.sort : undefined, limit: KANBAN_COLUMN_LIMIT, meta: 'filter_count' },
  });
  return { items: body?.data ?? [], total: Number(body?.meta?.filter_count ?? body?.data?.length ?? 0) };
}

/**
 * The board's columns and their items, read as the signed-in user (one request per column, so each column
 * has its own count); items without a group get a column of their own when there are any.
 */
export function useKanbanColumns(query: ColumnsQuery | null): { columns: KanbanColumn[]; loading: boolean; error: string | null; reload(): void } {
  const [state, setState] = useState<{ columns: KanbanColumn[]; loading: boolean; error: string | null }>({ columns: [], loading: true, error: null });
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(query ? { ...query, groupField: query.groupField.field, target: query.target?.collection ?? null } : null);
  const latest = useRef(query);
  latest.current = query;

  useEffect(() => {
    const current = latest.current;
    if (!current) return setState({ columns: [], loading: false, error: null });
    let cancelled = false;
    setState((previous) => ({ ...previous, loading: true }));
    (async () => {
      const values = await readColumnValues(current);
      const columns = await Promise.all(
        [...values, { value: null, title: '' }].map(async (column) => ({ ...column, ...(await readColumn(current, column.value)) })),
      );
      return columns.filter((column) => column.value !== null || column.total > 0);
    })().then(
      (columns) => !cancelled && setState({ columns, loading: false, error: null }),
      (failure: ApiHttpError) => !cancelled && setState({ columns: [], loading: false, error: failure.message }),
    );
    return () => {
      cancelled = true;
    };
  }, [key, version]);

  const reload = useCallback(() => setVersion((previous) => previous + 1), []);
  return { ...state, reload };
}
