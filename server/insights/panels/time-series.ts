import { DateTime } from 'luxon';
import { InvalidQueryError } from '../../errors.ts';
import type { FieldOverview } from '../../schema/overview.ts';
import type { Filter, Query } from '../../query/types.ts';
import type { Precision } from '../panel-options.ts';
import type { PanelContext, PanelOptions, PanelQuery } from '../panel-context.ts';
import { PRECISION_PARTS, bucketStarts, formatBucket, parseRange, partsKey, partsOf } from '../time-range.ts';
import { applyVariables } from '../variables.ts';
import { aggregateOf } from './aggregate-value.ts';

/** Series drawn when grouping: the largest by total over the range. */
export const MAX_SERIES = 10;
/** Aggregates whose empty bucket is a zero rather than "no value". */
const ZERO_WHEN_EMPTY = new Set(['count', 'countDistinct', 'sum']);

/** An instant as a filter value for the date field: timestamps compare instants, dateTime and date wall-clock values. */
function boundary(field: FieldOverview | undefined, instant: DateTime): string {
  if (field?.type === 'date') return instant.toFormat('yyyy-MM-dd');
  if (field?.type === 'dateTime') return instant.toFormat("yyyy-MM-dd'T'HH:mm:ss");
  return instant.toISO()!;
}

/** A stored date value as an instant in the project's zone (wall-clock values are read in that zone). */
function toZoned(value: unknown, zone: string): DateTime | null {
  if (value === null || value === undefined) return null;
  const parsed = value instanceof Date ? DateTime.fromJSDate(value, { zone }) : DateTime.fromISO(String(value), { zone });
  return parsed.isValid ? parsed.setZone(zone) : null;
}

/** The first and last date of the filtered items, for `range: "auto"`; null when there are none. */
async function dataSpan(options: PanelOptions, context: PanelContext, filter: Filter | undefined): Promise<[DateTime, DateTime] | null> {
  const { data } = await context.read(options.collection, { aggregate: { min: [options.dateField], max: [options.dateField] }, filter });
  const row = data[0] as { min?: Record<string, unknown>; max?: Record<string, unknown> } | undefined;
  const from = toZoned(row?.min?.[options.dateField], context.timeZone);
  const to = toZoned(row?.max?.[options.dateField], context.timeZone);
  return from && to ? [from, to] : null;
}

async function span(options: PanelOptions, context: PanelContext, filter: Filter | undefined): Promise<[DateTime, DateTime] | null> {
  const range: string = context.range ?? options.range ?? '1 week';
  if (range === 'auto') return dataSpan(options, context, filter);
  const duration = parseRange(range);
  if (!duration) throw new InvalidQueryError(`range "${range}" must be "auto" or a duration such as "7 days".`, { field: 'range' });
  return [context.now.minus(duration), context.now];
}

/** The MAX_SERIES values of `groupBy` with the largest aggregate over the range, largest first. */
async function topGroups(options: PanelOptions, context: PanelContext, filter: Filter): Promise<unknown[]> {
  const fn: string = options.function;
  const { data } = await context.read(options.collection, {
    aggregate: { [fn]: [options.valueField] },
    groupBy: [options.groupBy],
    filter,
    sort: [`-${fn}.${options.valueField}`, options.groupBy],
    limit: MAX_SERIES,
  }, MAX_SERIES);
  return data.map((row) => row[options.groupBy] ?? null);
}

/** Items whose `field` is one of `groups` (null: items without a value). */
function amongGroups(field: string, groups: unknown[]): Filter {
  const keys = groups.filter((group) => group !== null) as Array<string | number | boolean>;
  const conditions: Filter[] = [];
  if (keys.length > 0) conditions.push({ [field]: { _in: keys } });
  if (keys.length < groups.length) conditions.push({ [field]: { _null: true } });
  return { _or: conditions };
}

/** The series' key: a group value as text, null for items without one. */
function seriesName(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * `time-series`: the aggregate per bucket (year, month, ISO week, day or hour in the project's time zone) over
 * the range, gap-filled; with `groupBy`, one series per value of that field: the MAX_SERIES with the largest
 * aggregate over the range (asked first, so the series read stays bounded by buckets × series).
 */
export const timeSeriesPanel: PanelQuery = async (options, context) => {
  const precision: Precision = options.precision ?? 'day';
  const dateField: string = options.dateField;
  const filter = applyVariables(options.filter, context.variables);
  const bounds = await span(options, context, filter);
  if (!bounds) return { buckets: [], series: [] };
  const starts = bucketStarts(bounds[0], bounds[1], precision);
  const end = starts[starts.length - 1]!.plus({ [`${precision}s`]: 1 });
  const field = context.schema.collections[options.collection]?.fields[dateField];
  const within: Filter = { [dateField]: { _gte: boundary(field, starts[0]!), _lt: boundary(field, end) } };
  const parts = PRECISION_PARTS[precision];
  const range = filter ? [filter, within] : [within];
  const groups = options.groupBy ? await topGroups(options, context, { _and: range }) : [null];
  if (groups.length === 0) return { buckets: starts.map(formatBucket), series: [] };
  const rows = starts.length * groups.length;
  const query: Query = {
    aggregate: { [options.function]: [options.valueField] },
    groupBy: [...parts.map((part) => `${part}(${dateField})`), ...(options.groupBy ? [options.groupBy] : [])],
    filter: { _and: options.groupBy ? [...range, amongGroups(options.groupBy, groups)] : range },
    limit: rows,
  };
  const { data } = await context.read(options.collection, query, rows);

  const buckets = starts.map(formatBucket);
  const index = new Map<string, number>();
  // A repeated wall-clock hour (daylight saving ends) is one group in the database: it goes to its first bucket.
  starts.forEach((start, position) => {
    const key = partsKey(partsOf(start), precision);
    if (!index.has(key)) index.set(key, position);
  });
  const empty = ZERO_WHEN_EMPTY.has(options.function) ? 0 : null;
  const series = new Map(groups.map((group) => [seriesName(group), buckets.map((): number | null => empty)]));
  for (const row of data) {
    const values = Object.fromEntries(parts.map((part) => [part, Number(row[`${dateField}_${part}`])]));
    const position = index.get(partsKey(values, precision));
    const seriesValues = series.get(options.groupBy ? seriesName(row[options.groupBy]) : null);
    if (position === undefined || !seriesValues) continue;
    seriesValues[position] = aggregateOf(row, options.function, options.valueField, 'valueField');
  }
  return { buckets, series: [...series].map(([name, values]) => ({ name, values })) };
};
