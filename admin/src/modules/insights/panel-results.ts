/** What `GET /dashboards/:id/data` and `POST /panels/preview` answer for each panel type. */

export interface PanelError {
  error: { code: string; message: string };
}
export interface ValueResult {
  value: number | null;
  goal?: number;
}
export interface TimeSeriesResult {
  buckets: string[];
  series: Array<{ name: string | number | boolean | null; values: Array<number | null> }>;
}
export interface GroupsResult {
  groups: Array<{ key: string | number | boolean | null; value: number }>;
}
export interface ItemsResult {
  items: Array<Record<string, unknown>>;
}

export type PanelResult = PanelError | ValueResult | TimeSeriesResult | GroupsResult | ItemsResult | Record<string, never>;

export function isError(result: unknown): result is PanelError {
  return !!result && typeof result === 'object' && 'error' in result && !!(result as PanelError).error;
}

/** `{ "data": { "<panel id>": <result> } }` of the dashboard data endpoint. */
export type DashboardData = Record<string, PanelResult>;
