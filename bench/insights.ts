import type { Api } from './api.ts';
import type { Scenario } from './load.ts';

/**
 * The eight panels of the `dashboard_8_panels` scenario, over the seeded articles (published_on spans the
 * three years before 2026): each computing type once, time series both with a data-derived range and a
 * fixed one grouped into series.
 */
const PANELS = [
  { type: 'metric', options: { collection: 'articles', field: 'id', function: 'count' } },
  { type: 'metric', options: { collection: 'articles', field: 'views', function: 'sum', filter: { status: { _eq: '{{ state }}' } } } },
  { type: 'meter', options: { collection: 'articles', field: 'views', function: 'avg', goal: 600 } },
  { type: 'time-series', options: { collection: 'articles', function: 'count', valueField: 'id', dateField: 'published_on', precision: 'month', range: 'auto' } },
  { type: 'time-series', options: { collection: 'articles', function: 'sum', valueField: 'views', dateField: 'published_on', precision: 'week', range: '4 years', groupBy: 'status' } },
  { type: 'bar-chart', options: { collection: 'articles', xAxis: 'author', yAxis: 'views', function: 'sum', limit: 20 } },
  { type: 'pie-chart', options: { collection: 'articles', column: 'status', function: 'count' } },
  { type: 'list', options: { collection: 'articles', displayTemplate: '{{title}} – {{author.name}}', sortField: 'views', sortDirection: 'desc', limit: 10 } },
  // Not computed (no query), but on the dashboard as in real use: supplies `state` to the second metric.
  { type: 'global-variable', options: { field: 'state', type: 'string', defaultValue: 'published' } },
] as const;

/** Creates the benchmark dashboard through the API; returns its id. */
export async function createBenchDashboard(api: Api): Promise<string> {
  const { data } = await api.call<{ data: { id: string } }>('POST', '/dashboards', { name: 'Bench' });
  for (const [index, panel] of PANELS.entries()) {
    await api.call('POST', '/panels', { dashboard: data.id, position_x: 1 + (index % 3) * 8, position_y: 1 + Math.floor(index / 3) * 6, width: 8, height: 6, ...panel });
  }
  return data.id;
}

/** `dashboard_8_panels`: one request computing the whole dashboard (docs/insights.md). */
export function insightsScenarios(dashboard: string): Scenario[] {
  return [
    {
      name: 'dashboard_8_panels',
      kind: 'read',
      directus: null,
      method: 'GET',
      path: `/dashboards/${dashboard}/data`,
      example: 'GET /dashboards/<id>/data (8 computing panels: 2 metrics, meter, 2 time series, bar, pie, list)',
    },
  ];
}
