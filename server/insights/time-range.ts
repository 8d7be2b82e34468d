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
  return start.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
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

/** The bucket start a grouped row names through its date parts (`date_year`, `date_month` …), in `zone`. */
export function bucketOfParts(parts: Record<string, number>, precision: Precision, zone: string): DateTime {
  if (precision === 'week') return DateTime.fromObject({ weekYear: parts.isoyear, weekNumber: parts.week, weekday: 1 }, { zone });
  return DateTime.fromObject({ year: parts.year, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0 }, { zone });
}
