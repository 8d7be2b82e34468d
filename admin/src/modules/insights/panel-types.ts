/**
 * The panel types of the Insights module and their options, with Directus 10's option names (the API
 * validates them on write; these lists drive the admin's forms).
 */

export const PANEL_TYPES = ['metric', 'time-series', 'bar-chart', 'pie-chart', 'list', 'meter', 'label', 'global-variable', 'relational-variable'] as const;
export type PanelType = (typeof PANEL_TYPES)[number];

/** Whether a panel's type is one of the built-in ones (the server computes their data, the editor has their forms). */
export function isBuiltInPanel(type: string | undefined): type is PanelType {
  return PANEL_TYPES.includes(type as PanelType);
}

export const AGGREGATE_FUNCTIONS = ['count', 'countDistinct', 'sum', 'avg', 'min', 'max'] as const;
export const PRECISIONS = ['hour', 'day', 'week', 'month', 'year'] as const;
/** Relative ranges a time series (and the dashboard's override) can cover, ending now. */
export const RANGES = ['auto', '1 day', '1 week', '30 days', '3 months', '1 year'] as const;
export const VARIABLE_TYPES = ['string', 'integer', 'float', 'boolean', 'date', 'dateTime'] as const;
export const COMPARISONS = ['>=', '>', '=', '!=', '<', '<='] as const;
export const NOTATIONS = ['standard', 'compact'] as const;
export const SORT_DIRECTIONS = ['desc', 'asc'] as const;
export const CURVE_TYPES = ['smooth', 'straight', 'stepline'] as const;
export const METER_SIZES = ['full', 'half'] as const;
export const REFRESH_INTERVALS = [0, 10, 30, 60, 300] as const;

/** A variable's name as other panels write it in `{{ name }}` (the API checks the same pattern). */
export const VARIABLE_NAME = /^[a-z_][a-z0-9_]*$/;

export type PanelOptions = Record<string, unknown>;

/** A row of tessera_panels. */
export interface PanelRecord {
  id: string;
  dashboard: string;
  name: string | null;
  icon: string | null;
  color: string | null;
  note: string | null;
  /** A built-in PanelType, or the id of an admin extension's panel. */
  type: string;
  show_header: boolean;
  position_x: number;
  position_y: number;
  width: number;
  height: number;
  options: PanelOptions | null;
}

/** A row of tessera_dashboards. */
export interface DashboardRecord {
  id: string;
  name: string;
  icon: string;
  color: string | null;
  note: string | null;
  date_created?: string | null;
}

/** Types whose panel reads a collection (and so has a collection and a filter). */
export const COLLECTION_TYPES: readonly PanelType[] = ['metric', 'time-series', 'bar-chart', 'pie-chart', 'list', 'meter', 'relational-variable'];

/** Grid size (in the dashboard's 24 columns × 40 px rows) a new panel of each type starts with. */
export const DEFAULT_SIZE: Record<PanelType, { width: number; height: number }> = {
  metric: { width: 6, height: 3 },
  'time-series': { width: 12, height: 6 },
  'bar-chart': { width: 12, height: 6 },
  'pie-chart': { width: 8, height: 6 },
  list: { width: 8, height: 6 },
  meter: { width: 6, height: 5 },
  label: { width: 6, height: 3 },
  'global-variable': { width: 6, height: 2 },
  'relational-variable': { width: 6, height: 2 },
};

/** The options a new panel of a type starts with: enough for the API to accept it once a collection is chosen. */
export function defaultOptions(type: PanelType): PanelOptions {
  switch (type) {
    case 'metric':
      return { function: 'count', field: 'id', notation: 'standard', conditionalFormatting: [] };
    case 'time-series':
      return { function: 'count', valueField: 'id', precision: 'day', range: '1 week', curveType: 'smooth' };
    case 'bar-chart':
      return { function: 'count', yAxis: 'id', limit: 10, horizontal: false };
    case 'pie-chart':
      return { function: 'count', limit: 10, donut: true, showLabels: true };
    case 'list':
      return { limit: 5, sortDirection: 'desc' };
    case 'meter':
      return { function: 'count', field: 'id', goal: 100, size: 'full' };
    case 'label':
      return { text: '' };
    case 'global-variable':
      return { type: 'string' };
    case 'relational-variable':
      return { multiple: false, limit: 100 };
  }
}

/** Drops options that are empty (unset form fields) so the stored JSON holds only what was chosen. */
export function cleanOptions(options: PanelOptions): PanelOptions {
  const clean: PanelOptions = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0 && key !== 'conditionalFormatting') continue;
    clean[key] = value;
  }
  return clean;
}
