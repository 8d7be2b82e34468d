import { describe, expect, it } from 'vitest';
import { barOption, pieOption, timeSeriesOption, type ChartContext } from '../../../../admin/src/modules/insights/chart-options.ts';
import { changedPlacements, placementForNew, toGridItem, toPlacement } from '../../../../admin/src/modules/insights/grid-layout.ts';
import { formatBucket, formatMetric, formatValue, groupLabel, metricColor, variableValue } from '../../../../admin/src/modules/insights/panel-format.ts';
import { cleanOptions, type PanelRecord } from '../../../../admin/src/modules/insights/panel-types.ts';
import { dashboardVariables } from '../../../../admin/src/modules/insights/variables.ts';
import { renderTemplate } from '../../../../admin/src/content/display-template.ts';

const panel = (id: string, x: number, y: number, width: number, height: number, extra: Partial<PanelRecord> = {}): PanelRecord => ({
  id, dashboard: 'd', name: null, icon: null, color: null, note: null, type: 'metric', show_header: true, position_x: x, position_y: y, width, height, options: {}, ...extra,
});

describe('insights number formatting', () => {
  it('formats metrics with prefix, suffix, digits and notation per locale', () => {
    expect(formatMetric(1234.5, { prefix: 'R$ ' }, 'pt-BR')).toBe('R$ 1.234,5');
    expect(formatMetric(1234.5, { prefix: '$' }, 'en-US')).toBe('$1,234.5');
    expect(formatMetric(3, { minimumFractionDigits: 2, suffix: ' %' }, 'en-US')).toBe('3.00 %');
    expect(formatMetric(2.71828, { maximumFractionDigits: 0 }, 'en-US')).toBe('3');
    expect(formatMetric(1_250_000, { notation: 'compact' }, 'en-US')).toBe('1.3M');
    expect(formatMetric(1_250_000, { notation: 'compact' }, 'pt-BR')).toBe('1,3\u00a0mi');
    // minimum above maximum would make Intl throw: the maximum follows the minimum.
    expect(formatMetric(1, { minimumFractionDigits: 3, maximumFractionDigits: 1 }, 'en-US')).toBe('1.000');
    expect(formatMetric(null, {}, 'en-US')).toBe('–');
  });

  it('picks the first conditional colour the value meets', () => {
    const rules = [{ operator: '>=', value: 100, color: '#00ff00' }, { operator: '>', value: 10, color: '#ffaa00' }, { operator: '<', value: 0, color: '#ff0000' }];
    expect(metricColor(150, rules)).toBe('#00ff00');
    expect(metricColor(50, rules)).toBe('#ffaa00');
    expect(metricColor(-1, rules)).toBe('#ff0000');
    expect(metricColor(5, rules)).toBeNull();
    expect(metricColor(5, [{ operator: '!=', value: 4, color: '#123456' }])).toBe('#123456');
    expect(metricColor(null, rules)).toBeNull();
    expect(metricColor(5, 'not a list')).toBeNull();
  });

  it('formats plain values per locale', () => {
    expect(formatValue(1234.567, 'pt-BR')).toBe('1.234,57');
    expect(formatValue(1234.567, 'en-US', 0)).toBe('1,235');
  });
});

describe('insights dates', () => {
  it('labels buckets in the project time zone, as precise as the bucket, per locale', () => {
    // 2026-11-01 00:00 in São Paulo is 03:00 UTC: the label must say 1 Nov, not 31 Oct.
    const bucket = '2026-11-01T00:00:00-03:00';
    expect(formatBucket(bucket, 'day', 'en-US', 'America/Sao_Paulo')).toBe('Nov 1');
    expect(formatBucket(bucket, 'day', 'pt-BR', 'America/Sao_Paulo')).toBe('1 de nov.');
    expect(formatBucket(bucket, 'day', 'en-US', 'UTC')).toBe('Nov 1');
    expect(formatBucket('2026-11-01T00:00:00+00:00', 'day', 'en-US', 'America/Sao_Paulo')).toBe('Oct 31');
    expect(formatBucket(bucket, 'month', 'en-US', 'America/Sao_Paulo')).toBe('Nov 2026');
    expect(formatBucket(bucket, 'month', 'pt-BR', 'America/Sao_Paulo')).toBe('nov. de 2026');
    expect(formatBucket(bucket, 'year', 'pt-BR', 'America/Sao_Paulo')).toBe('2026');
    expect(formatBucket('2026-11-23T14:00:00+00:00', 'hour', 'pt-BR', 'UTC')).toBe('23 de nov., 14:00');
    expect(formatBucket('2026-11-23T14:00:00+00:00', 'day', 'en-US', 'Not/AZone')).toBe('Nov 23');
    expect(formatBucket('garbage', 'day', 'en-US', 'UTC')).toBe('garbage');
  });
});

describe('insights display templates and variables', () => {
  it('fills list templates with nested relation fields', () => {
    expect(renderTemplate('{{title}} – {{author.name}}', { id: 1, title: 'Hello', author: { name: 'Ana' } })).toBe('Hello – Ana');
    expect(renderTemplate('{{ title }} ({{missing}})', { id: 2, title: 'Only' })).toBe('Only ()');
  });

  it('types variable values as the panel says', () => {
    expect(variableValue('integer', '42')).toBe(42);
    expect(variableValue('integer', '4.2')).toBeUndefined();
    expect(variableValue('float', '4,5')).toBe(4.5);
    expect(variableValue('boolean', 'true')).toBe(true);
    expect(variableValue('string', 7)).toBe('7');
    expect(variableValue('string', '')).toBeUndefined();
  });

  it('sends chosen values, else global defaults, and leaves unset variables out', () => {
    const panels = [
      panel('a', 1, 1, 6, 2, { type: 'global-variable', options: { field: 'status', type: 'string', defaultValue: 'published' } }),
      panel('b', 7, 1, 6, 2, { type: 'global-variable', options: { field: 'min_views', type: 'integer', defaultValue: '10' } }),
      panel('c', 13, 1, 6, 2, { type: 'relational-variable', options: { field: 'author', collection: 'authors' } }),
      panel('d', 1, 3, 6, 2, { type: 'metric', options: { field: 'id' } }),
    ];
    expect(dashboardVariables(panels, {})).toEqual({ status: 'published', min_views: 10 });
    expect(dashboardVariables(panels, { status: 'draft', author: [3, 4] })).toEqual({ status: 'draft', min_views: 10, author: [3, 4] });
    expect(dashboardVariables(panels, { status: undefined, author: [] })).toEqual({ min_views: 10 });
  });

  it('keeps only chosen options', () => {
    expect(cleanOptions({ collection: 'a', prefix: '', filter: null, groupBy: undefined, conditionalFormatting: [], limit: 0 })).toEqual({ collection: 'a', conditionalFormatting: [], limit: 0 });
  });
});

describe('insights grid', () => {
  it('maps 1-based stored positions to the grid and back', () => {
    expect(toGridItem(panel('a', 1, 1, 6, 3))).toEqual({ i: 'a', x: 0, y: 0, w: 6, h: 3 });
    expect(toPlacement({ i: 'a', x: 4, y: 2, w: 8, h: 5 })).toEqual({ position_x: 5, position_y: 3, width: 8, height: 5 });
    // Wider than the grid, or beyond its right edge: kept inside the 24 columns.
    expect(toGridItem(panel('b', 30, 2, 40, 2))).toEqual({ i: 'b', x: 0, y: 1, w: 24, h: 2 });
    expect(toGridItem(panel('c', 22, 1, 6, 2))).toEqual({ i: 'c', x: 18, y: 0, w: 6, h: 2 });
  });

  it('reports only the panels whose place or size changed', () => {
    const panels = [panel('a', 1, 1, 6, 3), panel('b', 7, 1, 6, 3)];
    expect(changedPlacements(panels, [{ i: 'a', x: 0, y: 0, w: 6, h: 3 }, { i: 'b', x: 12, y: 0, w: 8, h: 4 }])).toEqual([{ id: 'b', placement: { position_x: 13, position_y: 1, width: 8, height: 4 } }]);
    expect(changedPlacements(panels, panels.map(toGridItem))).toEqual([]);
  });

  it('puts a new panel in the first free place from the top', () => {
    // The first free place from the top: beside the panels when the row has room, below them when not.
    expect(placementForNew([panel('a', 1, 1, 6, 3), panel('b', 7, 2, 6, 5)], { width: 12, height: 6 })).toEqual({ position_x: 13, position_y: 1, width: 12, height: 6 });
    expect(placementForNew([panel('a', 1, 1, 12, 3), panel('b', 13, 1, 12, 5)], { width: 6, height: 2 })).toEqual({ position_x: 1, position_y: 4, width: 6, height: 2 });
    expect(placementForNew([panel('a', 1, 1, 6, 3), panel('b', 7, 2, 18, 5)], { width: 24, height: 2 })).toEqual({ position_x: 1, position_y: 7, width: 24, height: 2 });
    expect(placementForNew([], { width: 6, height: 3 })).toEqual({ position_x: 1, position_y: 1, width: 6, height: 3 });
  });
});

describe('insights chart options', () => {
  const context: ChartContext = { locale: 'pt-BR', timeZone: 'UTC', labels: { none: '(nenhum)', yes: 'Sim', no: 'Não' } };

  it('builds one line per series with bucket labels and locale numbers', () => {
    const option = timeSeriesOption({ buckets: ['2026-11-01T00:00:00+00:00', '2026-12-01T00:00:00+00:00'], series: [{ name: 'news', values: [1, null] }, { name: null, values: [2500.5, 3] }] }, { precision: 'month' }, context) as any;
    expect(option.xAxis.data).toEqual(['nov. de 2026', 'dez. de 2026']);
    expect(option.series.map((series: any) => series.name)).toEqual(['news', '(nenhum)']);
    expect(option.series[0].data).toEqual([1, null]);
    expect(option.yAxis.axisLabel.formatter(2500.5)).toBe('2.500,5');
    expect(option.legend).toBeTruthy();
    // Series of a boolean field come as "true"/"false" text: they read Yes/No like pie slices.
    const byFlag = timeSeriesOption({ buckets: ['2026-11-01T00:00:00+00:00'], series: [{ name: 'true', values: [1] }, { name: 'false', values: [2] }] }, {}, { ...context, booleanSeries: true }) as any;
    expect(byFlag.series.map((series: any) => series.name)).toEqual(['Sim', 'Não']);
  });

  it('builds bars (vertical or horizontal) and pies from groups', () => {
    const groups = { groups: [{ key: true, value: 3 }, { key: null, value: 1 }, { key: 'x', value: 2 }] };
    const bars = barOption(groups, { color: '#ff0000' }, context) as any;
    expect(bars.xAxis.data).toEqual(['Sim', '(nenhum)', 'x']);
    expect(bars.series[0]).toMatchObject({ type: 'bar', data: [3, 1, 2], color: '#ff0000' });
    const horizontal = barOption(groups, { horizontal: true }, context) as any;
    expect(horizontal.yAxis.data).toEqual(['Sim', '(nenhum)', 'x']);
    const pie = pieOption(groups, { donut: false }, context) as any;
    expect(pie.series[0].radius).toBe('70%');
    expect((pieOption(groups, {}, context) as any).series[0].radius).toEqual(['30%', '70%']);
    expect(pie.series[0].label.formatter({ percent: 33.333 })).toBe('33,3 %');
    expect(pie.legend).toBeTruthy();
    expect(pie.series[0].data).toEqual([{ name: 'Sim', value: 3 }, { name: '(nenhum)', value: 1 }, { name: 'x', value: 2 }]);
    expect(groupLabel(false, '-', 'Yes', 'No')).toBe('No');
  });
});
