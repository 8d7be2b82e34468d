import type { PanelContext, PanelOptions, PanelQuery } from '../panel-context.ts';
import { applyVariables } from '../variables.ts';
import { aggregateOf } from './aggregate-value.ts';

/** One aggregate of one field over the filtered items. */
async function aggregateOne(options: PanelOptions, context: PanelContext): Promise<number | null> {
  const query = { aggregate: { [options.function]: [options.field] }, filter: applyVariables(options.filter, context.variables) };
  const { data } = await context.read(options.collection, query);
  return aggregateOf(data[0], options.function, options.field, 'field');
}

/** `metric`: `{ value }`. */
export const metricPanel: PanelQuery = async (options, context) => ({ value: await aggregateOne(options, context) });

/** `meter`: `{ value, goal }`. */
export const meterPanel: PanelQuery = async (options, context) => ({ value: await aggregateOne(options, context), goal: options.goal });
