import type { PanelType } from './panel-options.ts';
import type { PanelQuery } from './panel-context.ts';
import { barChartPanel, pieChartPanel } from './panels/group-chart.ts';
import { listPanel, relationalVariablePanel } from './panels/item-list.ts';
import { meterPanel, metricPanel } from './panels/metric.ts';
import { timeSeriesPanel } from './panels/time-series.ts';

/** Panels that only display (text, a variable's input): nothing to compute. */
const nothing: PanelQuery = async () => ({});

/** Each panel type's query. */
export const PANEL_QUERIES: Record<PanelType, PanelQuery> = {
  metric: metricPanel,
  meter: meterPanel,
  'time-series': timeSeriesPanel,
  'bar-chart': barChartPanel,
  'pie-chart': pieChartPanel,
  list: listPanel,
  'relational-variable': relationalVariablePanel,
  label: nothing,
  'global-variable': nothing,
};
