/**
 * Dates of the calendar layout: the span a month view shows, the filter that reads its items, which days
 * an item covers, and the values a drag to another day writes. Pure logic on dayjs (antd's date library).
 */
import dayjs, { type Dayjs } from 'dayjs';

/** The date field types the calendar can place items by. */
export const DATE_TYPES = ['date', 'dateTime', 'timestamp'] as const;
export type DateType = (typeof DATE_TYPES)[number];

/** The days a month view shows: six weeks from the start (in dayjs's locale) of the 1st's week. */
export function monthSpan(month: Dayjs): { first: Dayjs; last: Dayjs } {
  const first = month.startOf('month').startOf('week');
  return { first, last: first.add(41, 'day') };
}

/** A day (local midnight) as the field type stores it. */
export function toFieldValue(moment: Dayjs, type: DateType): string {
  if (type === 'date') return moment.format('YYYY-MM-DD');
  if (type === 'dateTime') return moment.format('YYYY-MM-DDTHH:mm:ss');
  return moment.toISOString();
}

/** Items starting in the span, or (with an end field) running into it. */
export function spanFilter(span: { first: Dayjs; last: Dayjs }, start: { field: string; type: DateType }, end: { field: string; type: DateType } | null): Record<string, unknown> {
  const from = span.first.startOf('day');
  const to = span.last.endOf('day');
  const startsInside = { _and: [{ [start.field]: { _gte: toFieldValue(from, start.type) } }, { [start.field]: { _lte: toFieldValue(to, start.type) } }] };
  if (!end) return startsInside;
  const runsInto = { _and: [{ [start.field]: { _lt: toFieldValue(from, start.type) } }, { [end.field]: { _gte: toFieldValue(from, end.type) } }] };
  return { _or: [startsInside, runsInto] };
}

/** The days (`YYYY-MM-DD`) an item covers inside the span: its start day, through its end day when it has one. */
export function daysOf(startValue: unknown, endValue: unknown, span: { first: Dayjs; last: Dayjs }): string[] {
  if (typeof startValue !== 'string' || !startValue) return [];
  const start = dayjs(startValue).startOf('day');
  if (!start.isValid()) return [];
  const parsedEnd = typeof endValue === 'string' && endValue ? dayjs(endValue).startOf('day') : start;
  const end = parsedEnd.isValid() && !parsedEnd.isBefore(start) ? parsedEnd : start;
  const days: string[] = [];
  // At most the span's 42 days, however long the item runs.
  for (let day = start.isBefore(span.first) ? span.first.startOf('day') : start; !day.isAfter(end) && !day.isAfter(span.last); day = day.add(1, 'day')) days.push(day.format('YYYY-MM-DD'));
  return days;
}

/**
 * The payload that moves an item to `day`: the start keeps its time of day, and an end moves by as many
 * days, so the item keeps its length.
 */
export function reschedule(day: string, start: { field: string; type: DateType; value: string }, end: { field: string; type: DateType; value: unknown } | null): Record<string, string> {
  const original = dayjs(start.value);
  const target = dayjs(day);
  const moved = target.hour(original.hour()).minute(original.minute()).second(original.second()).millisecond(original.millisecond());
  const payload: Record<string, string> = { [start.field]: toFieldValue(moved, start.type) };
  if (end && typeof end.value === 'string' && end.value) {
    const shift = moved.startOf('day').diff(original.startOf('day'), 'day');
    payload[end.field] = toFieldValue(dayjs(end.value).add(shift, 'day'), end.type);
  }
  return payload;
}
