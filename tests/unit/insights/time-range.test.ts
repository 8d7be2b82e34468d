import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { bucketStarts, formatBucket, parseRange, partsKey, partsOf } from '../../../server/insights/time-range.ts';

const zone = 'America/Sao_Paulo';
const at = (iso: string) => DateTime.fromISO(iso, { zone: 'UTC' }).setZone(zone);

describe('time ranges and buckets', () => {
  it.each([
    ['7 days', { days: 7 }],
    ['1 week', { weeks: 1 }],
    ['3 Months', { months: 3 }],
    ['1 year', { years: 1 }],
    ['24 hours', { hours: 24 }],
  ])('parses %j', (text, expected) => {
    expect(parseRange(text)).toEqual(expected);
  });

  it.each(['', 'auto', '0 days', '7', 'seven days', '7 fortnights', '-1 day'])('refuses %j as a duration', (text) => {
    expect(parseRange(text)).toBeNull();
  });

  it('starts buckets in the project zone: 01:00 UTC on the 1st belongs to the previous day and month in São Paulo', () => {
    const instant = at('2026-11-01T01:00:00Z');
    expect(bucketStarts(instant, instant, 'day').map(formatBucket)).toEqual(['2026-10-31T00:00:00-03:00']);
    expect(bucketStarts(instant, instant, 'month').map(formatBucket)).toEqual(['2026-10-01T00:00:00-03:00']);
  });

  it('gap-fills from the first to the last bucket, weeks starting on Monday', () => {
    expect(bucketStarts(at('2026-11-04T12:00:00Z'), at('2026-11-20T12:00:00Z'), 'week').map(formatBucket)).toEqual([
      '2026-11-02T00:00:00-03:00',
      '2026-11-09T00:00:00-03:00',
      '2026-11-16T00:00:00-03:00',
    ]);
  });

  it('keys a bucket by the parts the database groups by, ISO weeks across the new year included', () => {
    const [week] = bucketStarts(DateTime.fromISO('2024-12-31T10:00:00Z', { zone: 'UTC' }), DateTime.fromISO('2024-12-31T10:00:00Z', { zone: 'UTC' }), 'week');
    expect(formatBucket(week!)).toBe('2024-12-30T00:00:00+00:00');
    // 31 December 2024 is in ISO week 1 of 2025: the row PostgreSQL groups as isoyear 2025, week 1.
    expect(partsKey(partsOf(week!), 'week')).toBe(partsKey({ isoyear: 2025, week: 1 }, 'week'));
    const [lastWeek] = bucketStarts(at('2027-01-01T12:00:00Z'), at('2027-01-01T12:00:00Z'), 'week');
    expect(formatBucket(lastWeek!)).toBe('2026-12-28T00:00:00-03:00');
    expect(partsKey(partsOf(lastWeek!), 'week')).toBe('2026|53');
    const [hour] = bucketStarts(at('2026-02-03T07:30:00Z'), at('2026-02-03T07:30:00Z'), 'hour');
    expect(formatBucket(hour!)).toBe('2026-02-03T04:00:00-03:00');
    expect(partsKey(partsOf(hour!), 'hour')).toBe('2026|2|3|4');
    expect(partsKey(partsOf(hour!), 'month')).toBe('2026|2');
  });

  it('refuses more than 1,000 buckets', () => {
    expect(() => bucketStarts(at('2025-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'), 'hour')).toThrow(InvalidQueryError);
  });
});
