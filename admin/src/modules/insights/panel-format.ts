import type { Locale } from '../../app/module.ts';
import { COMPARISONS } from './panel-types.ts';

/** Number and date formatting of panels, with Intl in the admin's locale (never the browser's). */

export interface MetricFormat {
  prefix?: string;
  suffix?: string;
  minimumFractionDigits?: number;
  maximumFractionDigits?: number;
  notation?: 'standard' | 'compact';
}

function digits(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 20 ? value : undefined;
}

/** 1234.5 with `{ prefix: 'R$ ' }` → "R$ 1.234,5" (pt-BR); null → "–". */
export function formatMetric(value: number | null | undefined, options: MetricFormat, locale: Locale): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  let minimum = digits(options.minimumFractionDigits);
  let maximum = digits(options.maximumFractionDigits) ?? (options.notation === 'compact' ? 1 : Math.max(minimum ?? 0, 2));
  if (minimum !== undefined && minimum > maximum) maximum = minimum;
  if (minimum === undefined) minimum = 0;
  const number = new Intl.NumberFormat(locale, { notation: options.notation === 'compact' ? 'compact' : 'standard', minimumFractionDigits: minimum, maximumFractionDigits: maximum }).format(value);
  return `${options.prefix ?? ''}${number}${options.suffix ?? ''}`;
}

/** A plain number of a chart axis or tooltip in the locale (1.234,5 in pt-BR). */
export function formatValue(value: number | null | undefined, locale: Locale, maximumFractionDigits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return new Intl.NumberFormat(locale, { maximumFractionDigits }).format(value);
}

export interface ConditionalFormat {
  operator: (typeof COMPARISONS)[number];
  value: number;
  color: string;
}

/** The colour of the first rule the value meets (Directus's order), else null. */
export function metricColor(value: number | null | undefined, rules: unknown): string | null {
  if (value === null || value === undefined || !Array.isArray(rules)) return null;
  for (const rule of rules as Partial<ConditionalFormat>[]) {
    if (!rule || typeof rule.value !== 'number' || !rule.color) continue;
    const met =
      rule.operator === '>=' ? value >= rule.value
      : rule.operator === '>' ? value > rule.value
      : rule.operator === '=' ? value === rule.value
      : rule.operator === '!=' ? value !== rule.value
      : rule.operator === '<' ? value < rule.value
      : rule.operator === '<=' ? value <= rule.value
      : false;
    if (met) return rule.color;
  }
  return null;
}

const BUCKET_PARTS: Record<string, Intl.DateTimeFormatOptions> = {
  hour: { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  day: { month: 'short', day: 'numeric' },
  week: { month: 'short', day: 'numeric' },
  month: { month: 'short', year: 'numeric' },
  year: { year: 'numeric' },
};

/**
 * A time-series bucket start ("2026-11-01T00:00:00+00:00") as a label in the project's time zone, as
 * precise as the bucket: "Nov 2026" / "nov. de 2026" for months, "Nov 23" / "23 de nov." for days.
 */
export function formatBucket(bucket: string, precision: string, locale: Locale, timeZone: string): string {
  const date = new Date(bucket);
  if (Number.isNaN(date.getTime())) return bucket;
  const parts = BUCKET_PARTS[precision] ?? BUCKET_PARTS.day!;
  try {
    return new Intl.DateTimeFormat(locale, { ...parts, timeZone }).format(date);
  } catch {
    // An unknown time zone name: fall back to UTC rather than fail the whole chart.
    return new Intl.DateTimeFormat(locale, { ...parts, timeZone: 'UTC' }).format(date);
  }
}

/** The label of a group key (bar and pie charts, series names): empty and null keys read as "(none)". */
export function groupLabel(key: unknown, none: string, yes: string, no: string): string {
  if (key === null || key === undefined || key === '') return none;
  if (typeof key === 'boolean') return key ? yes : no;
  return String(key);
}

/**
 * The text a global-variable input holds → the value sent in `variables`, typed as the panel says
 * (undefined when empty or unreadable, so the panel's default applies).
 */
export function variableValue(type: string, raw: unknown): string | number | boolean | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (type === 'boolean') return typeof raw === 'boolean' ? raw : raw === 'true';
  if (type === 'integer') {
    const number = Number(raw);
    return Number.isInteger(number) ? number : undefined;
  }
  if (type === 'float') {
    const number = typeof raw === 'number' ? raw : Number(String(raw).replace(',', '.'));
    return Number.isFinite(number) ? number : undefined;
  }
  return String(raw);
}
