import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { bucketOfParts, bucketStarts, formatBucket, parseRange } from '../../../server/insights/time-range.ts';

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

  it('finds the bucket of grouped parts, ISO weeks across the new year included', () => {
    expect(formatBucket(bucketOfParts({ isoyear: 2026, week: 53 }, 'week', zone))).toBe('2026-12-28T00:00:00-03:00');
    expect(formatBucket(bucketOfParts({ isoyear: 2025, week: 1 }, 'week', 'UTC'))).toBe('2024-12-30T00:00:00+00:00');
    expect(formatBucket(bucketOfParts({ year: 2026, month: 2, day: 3, hour: 4 }, 'hour', zone))).toBe('2026-02-03T04:00:00-03:00');
  });

  it('refuses more than 1,000 buckets', () => {
    expect(() => bucketStarts(at('2025-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'), 'hour')).toThrow(InvalidQueryError);
  });
});
