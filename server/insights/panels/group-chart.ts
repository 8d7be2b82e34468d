import type { Query } from '../../query/types.ts';
import { GROUP_LIMIT } from '../panel-options.ts';
import type { PanelContext, PanelOptions, PanelQuery } from '../panel-context.ts';
import { applyVariables } from '../variables.ts';
import { aggregateOf } from './aggregate-value.ts';

interface Grouping {
  groupField: string;
  /** null: count(*) (a pie chart counting items). */
  valueField: string | null;
  valueOption: string;
  /** Bars keep the order of their axis; pie slices come largest first. */
  order: 'key' | 'value';
}

async function groups(options: PanelOptions, context: PanelContext, grouping: Grouping) {
  const fn: string = options.function;
  const aggregate = { [fn]: [grouping.valueField ?? '*'] };
  const valueSort = grouping.valueField === null ? `-${fn}` : `-${fn}.${grouping.valueField}`;
  const query: Query = {
    aggregate,
    groupBy: [grouping.groupField],
    filter: applyVariables(options.filter, context.variables),
    sort: grouping.order === 'key' ? [grouping.groupField] : [valueSort, grouping.groupField],
    limit: options.limit ?? GROUP_LIMIT.default,
  };
  const { data } = await context.read(options.collection, query, query.limit);
  return {
    groups: data.map((row) => ({ key: row[grouping.groupField] ?? null, value: aggregateOf(row, fn, grouping.valueField, grouping.valueOption) ?? 0 })),
  };
}

/** `bar-chart`: one bar per value of `xAxis`, the aggregate of `yAxis`, in axis order. */
export const barChartPanel: PanelQuery = (options, context) => groups(options, context, { groupField: options.xAxis, valueField: options.yAxis, valueOption: 'yAxis', order: 'key' });

/** `pie-chart`: one slice per value of `column`, largest first; `count` without valueField counts items. */
export const pieChartPanel: PanelQuery = (options, context) =>
  groups(options, context, { groupField: options.column, valueField: options.valueField ?? null, valueOption: 'valueField', order: 'value' });
