import type { Locale } from '../../app/module.ts';
import { formatBucket, formatValue, groupLabel } from './panel-format.ts';
import type { GroupsResult, TimeSeriesResult } from './panel-results.ts';
import type { PanelOptions } from './panel-types.ts';

/**
 * ECharts options built from panel results (pure, so unit tests can check them): every label and
 * number goes through the admin's Intl formatting, never ECharts' own.
 */

export interface ChartContext {
  locale: Locale;
  timeZone: string;
  /** "(none)", "Yes", "No" in the locale. */
  labels: { none: string; yes: string; no: string };
  /** The time series' `groupBy` field is a boolean: its series (named "true"/"false" by the server) read Yes/No. */
  booleanSeries?: boolean;
}

export type ChartOption = Record<string, unknown>;

const number = (value: unknown) => (typeof value === 'number' ? value : null);
const color = (options: PanelOptions) => (typeof options.color === 'string' && options.color ? options.color : undefined);

function valueAxis(context: ChartContext, decimals?: number) {
  return { type: 'value', axisLabel: { formatter: (value: number) => formatValue(value, context.locale, decimals ?? 2) } };
}

function tooltip(context: ChartContext, trigger: 'axis' | 'item', decimals?: number) {
  return { trigger, confine: true, valueFormatter: (value: unknown) => formatValue(number(value), context.locale, decimals ?? 2) };
}

export function timeSeriesOption(result: TimeSeriesResult, options: PanelOptions, context: ChartContext): ChartOption {
  const precision = typeof options.precision === 'string' ? options.precision : 'day';
  const decimals = typeof options.decimals === 'number' ? options.decimals : undefined;
  const curve = options.curveType;
  const fill = options.fillType !== 'disabled';
  const several = result.series.length > 1;
  return {
    backgroundColor: 'transparent',
    grid: { left: 8, right: 16, top: several ? 32 : 12, bottom: 8, containLabel: true },
    legend: several ? { top: 0, type: 'scroll' } : undefined,
    tooltip: tooltip(context, 'axis', decimals),
    xAxis: { type: 'category', boundaryGap: false, data: result.buckets.map((bucket) => formatBucket(bucket, precision, context.locale, context.timeZone)) },
    yAxis: valueAxis(context, decimals),
    series: result.series.map((series, index) => ({
      type: 'line',
      name: several ? groupLabel(context.booleanSeries && (series.name === 'true' || series.name === 'false') ? series.name === 'true' : series.name, context.labels.none, context.labels.yes, context.labels.no) : undefined,
      data: series.values,
      smooth: curve === undefined || curve === 'smooth',
      step: curve === 'stepline' ? 'middle' : undefined,
      showSymbol: result.buckets.length <= 40,
      connectNulls: false,
      color: !several || index === 0 ? color(options) : undefined,
      areaStyle: fill && !several ? { opacity: 0.18 } : undefined,
    })),
  };
}

export function barOption(result: GroupsResult, options: PanelOptions, context: ChartContext): ChartOption {
  const categories = result.groups.map((group) => groupLabel(group.key, context.labels.none, context.labels.yes, context.labels.no));
  const category = { type: 'category', data: categories, axisLabel: { hideOverlap: true } };
  const horizontal = options.horizontal === true;
  return {
    backgroundColor: 'transparent',
    grid: { left: 8, right: 16, top: 12, bottom: 8, containLabel: true },
    tooltip: tooltip(context, 'axis'),
    xAxis: horizontal ? valueAxis(context) : category,
    yAxis: horizontal ? { ...category, inverse: true } : valueAxis(context),
    series: [{ type: 'bar', data: result.groups.map((group) => group.value), color: color(options), barMaxWidth: 48 }],
  };
}

export function pieOption(result: GroupsResult, options: PanelOptions, context: ChartContext): ChartOption {
  const donut = options.donut !== false;
  return {
    backgroundColor: 'transparent',
    tooltip: { ...tooltip(context, 'item'), formatter: (item: { name: string; value: number; percent: number }) => `${item.name}: ${formatValue(item.value, context.locale)} (${formatValue(item.percent, context.locale, 1)} %)` },
    // Names in the legend, which always has room; the slices carry only their share, inside them (an
    // outside label is cut to nothing in a narrow panel).
    legend: { bottom: 0, type: 'scroll' },
    series: [
      {
        type: 'pie',
        center: ['50%', '45%'],
        // A ring thick enough for "33.3 %"; the outline keeps a share legible where it runs past a thin slice.
        radius: donut ? ['30%', '70%'] : '70%',
        label: { show: options.showLabels !== false, position: 'inside', color: '#fff', fontWeight: 600, textBorderColor: 'rgba(0, 0, 0, 0.55)', textBorderWidth: 2, formatter: (item: { percent: number }) => `${formatValue(item.percent, context.locale, 1)} %` },
        data: result.groups.map((group) => ({ name: groupLabel(group.key, context.labels.none, context.labels.yes, context.labels.no), value: group.value })),
      },
    ],
  };
}
