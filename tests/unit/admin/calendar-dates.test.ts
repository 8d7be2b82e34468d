import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { daysOf, monthSpan, reschedule, spanFilter, toFieldValue } from '../../../admin/src/content/items/calendar-dates.ts';

describe('calendar layout dates', () => {
  const span = monthSpan(dayjs('2026-03-15'));

  it('shows six weeks from the week of the 1st', () => {
    expect(span.first.format('YYYY-MM-DD')).toBe('2026-03-01');
    expect(span.last.format('YYYY-MM-DD')).toBe('2026-04-11');
    expect(monthSpan(dayjs('2026-04-02')).first.format('YYYY-MM-DD')).toBe('2026-03-29');
  });

  it('reads the items starting in the span, and with an end field those running into it', () => {
    expect(spanFilter(span, { field: 'day', type: 'date' }, null)).toEqual({ _and: [{ day: { _gte: '2026-03-01' } }, { day: { _lte: '2026-04-11' } }] });
    expect(spanFilter(span, { field: 'starts', type: 'dateTime' }, { field: 'ends', type: 'dateTime' })).toEqual({
      _or: [{ _and: [{ starts: { _gte: '2026-03-01T00:00:00' } }, { starts: { _lte: '2026-04-11T23:59:59' } }] }, { _and: [{ starts: { _lt: '2026-03-01T00:00:00' } }, { ends: { _gte: '2026-03-01T00:00:00' } }] }],
    });
  });

  it('places an item on its days inside the span, never more than the span', () => {
    expect(daysOf('2026-03-10', null, span)).toEqual(['2026-03-10']);
    expect(daysOf('2026-03-10T09:30:00', '2026-03-12T10:00:00', span)).toEqual(['2026-03-10', '2026-03-11', '2026-03-12']);
    expect(daysOf('2026-02-27', '2026-03-02', span)).toEqual(['2026-03-01', '2026-03-02']);
    expect(daysOf('2025-01-01', '2027-01-01', span)).toHaveLength(42);
    expect(daysOf('2026-03-10', '2026-03-01', span)).toEqual(['2026-03-10']);
    expect(daysOf(null, null, span)).toEqual([]);
    expect(daysOf('not a date', null, span)).toEqual([]);
  });

  it('moves an item to a day keeping its time of day and its length', () => {
    expect(reschedule('2026-03-20', { field: 'day', type: 'date', value: '2026-03-10' }, null)).toEqual({ day: '2026-03-20' });
    expect(reschedule('2026-03-31', { field: 'starts', type: 'dateTime', value: '2026-02-10T09:30:00' }, { field: 'ends', type: 'dateTime', value: '2026-02-12T18:00:00' })).toEqual({ starts: '2026-03-31T09:30:00', ends: '2026-04-02T18:00:00' });
    expect(reschedule('2026-03-20', { field: 'starts', type: 'dateTime', value: '2026-03-10T08:00:00' }, { field: 'ends', type: 'dateTime', value: null })).toEqual({ starts: '2026-03-20T08:00:00' });
    expect(toFieldValue(dayjs('2026-03-20T08:00:00'), 'timestamp')).toBe(dayjs('2026-03-20T08:00:00').toISOString());
  });
});
