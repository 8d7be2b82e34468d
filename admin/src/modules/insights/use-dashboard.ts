import { useCustom, useList, useOne } from '@refinedev/core';
import type { DashboardData } from './panel-results.ts';
import type { DashboardRecord, PanelRecord } from './panel-types.ts';

export const PANEL_FIELDS = ['id', 'dashboard', 'name', 'icon', 'color', 'note', 'type', 'show_header', 'position_x', 'position_y', 'width', 'height', 'options'];
export const DASHBOARD_FIELDS = ['id', 'name', 'icon', 'color', 'note', 'date_created'];

/** A dashboard and its panels (ordered top to bottom, left to right). */
export function useDashboard(id: string) {
  const dashboard = useOne<DashboardRecord>({ resource: 'dashboards', id, meta: { fields: DASHBOARD_FIELDS }, errorNotification: false });
  const panels = useList<PanelRecord>({
    resource: 'panels',
    pagination: { mode: 'off' },
    filters: [{ field: 'dashboard', operator: 'eq', value: id }],
    sorters: [{ field: 'position_y', order: 'asc' }, { field: 'position_x', order: 'asc' }],
    meta: { fields: PANEL_FIELDS },
  });
  return { dashboard, panels };
}

/**
 * Every panel's result in one request, computed on the server with the viewer's permissions; polled
 * every `refreshSeconds` (0: never). The previous results stay on screen while new ones load.
 */
export function useDashboardData(id: string, variables: Record<string, unknown>, range: string | null, refreshSeconds: number) {
  return useCustom<DashboardData>({
    url: `/dashboards/${encodeURIComponent(id)}/data`,
    method: 'get',
    config: { query: { variables: Object.keys(variables).length > 0 ? variables : undefined, range: range ?? undefined } },
    queryOptions: { refetchInterval: refreshSeconds > 0 ? refreshSeconds * 1000 : false, placeholderData: (previous) => previous, retry: false },
    errorNotification: false,
  });
}
