import type { Locale } from '../app/module.ts';

/**
 * Every date, time, number and size the admin shows goes through here, formatted with Intl in the app's
 * locale (the user's language, else the project's), never the browser's.
 */

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) cache.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

function numberFormat(locale: Locale, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.NumberFormat | undefined;
  if (!format) cache.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

export type DateKind = 'date' | 'time' | 'dateTime';

const DATE_PARTS: Record<DateKind, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'short' },
  time: { timeStyle: 'short' },
  dateTime: { dateStyle: 'short', timeStyle: 'short' },
};

/** A `date` column ("2026-11-23") is a calendar day: read it as local midnight so no time zone moves it. */
function toDate(value: string | number | Date, kind: DateKind): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string') {
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    if (kind === 'time' && /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) {
      const [hours, minutes, seconds] = value.split(':').map(Number);
      return new Date(1970, 0, 1, hours, minutes, Math.floor(seconds ?? 0));
    }
  }
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** `2026-11-23T17:42:48Z` → "23/11/2026, 14:42" (pt-BR) or "11/23/26, 2:42 PM" (en-US); unreadable values as given. */
export function formatDate(value: string | number | Date | null | undefined, locale: Locale, kind: DateKind = 'dateTime'): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value, kind);
  return date ? dateFormat(locale, DATE_PARTS[kind]).format(date) : String(value);
}

/**
 * 1234.5 → "1.234,5" (pt-BR). Decimal and big-integer values arrive as strings and are formatted from
 * the string, so no digit is lost to floating point.
 */
export function formatNumber(value: number | string | bigint | null | undefined, locale: Locale, options?: Intl.NumberFormatOptions): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value.trim())) return value;
  return numberFormat(locale, { maximumFractionDigits: 20, ...options }).format(value as number);
}

const BYTE_UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'];

/** 1536 → "1.5 kB" / "1,5 kB" (decimal units, as file managers show them). */
export function formatBytes(size: number | string | null | undefined, locale: Locale): string {
  if (size === null || size === undefined || size === '') return '';
  const bytes = Number(size);
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1000) return numberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'narrow' }).format(bytes).replace(/(\d)B$/, '$1 B');
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return numberFormat(locale, { style: 'unit', unit: BYTE_UNITS[unit], unitDisplay: 'short', maximumFractionDigits: value < 10 ? 1 : 0, minimumFractionDigits: value < 10 ? 1 : 0 }).format(value);
}
