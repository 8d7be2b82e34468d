import { DateTime, type DurationLikeObject } from 'luxon';
import { InvalidQueryError } from '../errors.ts';
import type { Precision } from './panel-options.ts';

/** Most buckets one time series may have (e.g. 1 year by hour is 8,760: too many to draw or to send). */
export const MAX_BUCKETS = 1000;

const UNITS = { minute: 'minutes', hour: 'hours', day: 'days', week: 'weeks', month: 'months', year: 'years' } as const;
const RANGE = /^\s*(\d{1,4})\s*(minute|hour|day|week|month|year)s?\s*$/i;

/** `"7 days"` → `{ days: 7 }`; null for anything else. */
export function parseRange(text: string): DurationLikeObject | null {
  const match = RANGE.exec(text);
  if (!match) return null;
  const amount = Number(match[1]);
  if (amount < 1) return null;
  return { [UNITS[match[2]!.toLowerCase() as keyof typeof UNITS]]: amount };
}

/** The date functions a series groups by for one precision; together they name one bucket. */
export const PRECISION_PARTS: Record<Precision, readonly string[]> = {
  year: ['year'],
  month: ['year', 'month'],
  week: ['isoyear', 'week'],
  day: ['year', 'month', 'day'],
  hour: ['year', 'month', 'day', 'hour'],
};

/** A bucket start as the API writes it: `2026-11-01T00:00:00-03:00`. */
export function formatBucket(start: DateTime): string {
  // By hand rather than toFormat: a long weekly or hourly series formats hundreds of these per panel.
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const offset = Math.abs(start.offset);
  const sign = start.offset < 0 ? '-' : '+';
  return `${pad(start.year, 4)}-${pad(start.month)}-${pad(start.day)}T${pad(start.hour)}:${pad(start.minute)}:${pad(start.second)}${sign}${pad(Math.floor(offset / 60))}:${pad(offset % 60)}`;
}

/** The start of the bucket holding `instant` (weeks start on Monday, ISO 8601). */
export function bucketStart(instant: DateTime, precision: Precision): DateTime {
  return instant.startOf(precision === 'week' ? 'week' : precision);
}

/** Every bucket start from the one holding `from` to the one holding `to`, in order; INVALID_QUERY past MAX_BUCKETS. */
export function bucketStarts(from: DateTime, to: DateTime, precision: Precision): DateTime[] {
  const starts: DateTime[] = [];
  const last = bucketStart(to, precision);
  for (let start = bucketStart(from, precision); start <= last; start = start.plus({ [UNITS[precision]]: 1 })) {
    if (starts.length === MAX_BUCKETS) {
      throw new InvalidQueryError(`The range holds more than ${MAX_BUCKETS} ${precision} buckets; choose a shorter range or a coarser precision.`, { field: 'options.range' });
    }
    starts.push(start);
  }
  return starts;
}

/**
 * The key of a bucket by its date parts (`2026|44` for ISO week 44 of 2026): rows are matched to buckets by
 * it, without building a date per row (a weekly series by status can have thousands of rows).
 */
export function partsKey(parts: Readonly<Record<string, number>>, precision: Precision): string {
  return PRECISION_PARTS[precision].map((part) => parts[part]).join('|');
}

/** The date parts of a bucket start, as the database's date functions name them. */
export function partsOf(start: DateTime): Record<string, number> {
  return { year: start.year, month: start.month, day: start.day, hour: start.hour, isoyear: start.weekYear, week: start.weekNumber };
}
