import { InvalidQueryError } from '../errors.ts';
import { fieldTypeTraits, type ValueKind } from '../schema/field-type-table.ts';
import type { FieldType } from '../schema/types.ts';

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/;
const INT4 = 2_147_483_647;
const INT8 = 9_223_372_036_854_775_807n;

/** Field types whose values are text. */
export const TEXT_TYPES: ReadonlySet<FieldType> = new Set(['string', 'text', 'csv', 'hash']);
/** Field types whose values are numbers. */
export const NUMERIC_TYPES: ReadonlySet<FieldType> = new Set(['integer', 'bigInteger', 'float', 'decimal']);
/** Field types whose values are dates or times. */
export const TEMPORAL_TYPES: ReadonlySet<FieldType> = new Set(['date', 'dateTime', 'timestamp', 'time']);

/** True when `value` is a UUID. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** `value` as a finite number, or null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value.trim());
  return null;
}

/** True when the string is an integer that fits a PostgreSQL bigint. */
export function isBigInteger(value: string): boolean {
  return INTEGER.test(value) && BigInt(value) <= INT8 && BigInt(value) >= -INT8 - 1n;
}

function validDate(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match) return false;
  const [, year, month, day, hour = '0', minute = '0', second = '0'] = match;
  // PostgreSQL has no year 0 (1 BC comes before 1 AD) and reads "0000-…" as out of range.
  if (Number(year) < 1) return false;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day) && Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60
  );
}

function validTime(value: string): boolean {
  const match = TIME.exec(value);
  return match !== null && Number(match[1]) < 24 && Number(match[2]) < 60 && Number(match[3] ?? 0) < 60;
}

/** True for a Date PostgreSQL can store and compare: a real instant in the years 1 to 9999. */
export function isStorableDate(date: Date): boolean {
  const year = date.getUTCFullYear();
  return Number.isFinite(date.getTime()) && year >= 1 && year <= 9999;
}

type Fail = (expected: string) => never;

/** PostgreSQL text cannot hold NUL, so no stored value can match one (and the statement would fail). */
function castText(value: unknown, fail: Fail): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? fail('text without NUL characters') : value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : fail('a string');
}

function castDateTime(value: unknown, fail: Fail): unknown {
  if (value instanceof Date && !isStorableDate(value)) return fail('a date and time in the years 1 to 9999');
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' && validDate(value) ? value : fail('a date and time (ISO 8601)');
}

function presenceOnly(_value: unknown, fail: Fail): never {
  return fail('no value (this field can only be tested with _null and _nnull)');
}

/** The filter-value cast of each value kind (server/schema/field-type-table.ts). */
const CASTS = {
  string: castText,
  text: castText,
  hash: castText,
  integer: (value, fail) => {
    const number = toNumber(value);
    return number !== null && Number.isInteger(number) && Math.abs(number) <= INT4 ? number : fail('an integer');
  },
  bigInteger: (value, fail) => {
    const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    return typeof text === 'string' && isBigInteger(text.trim()) ? text.trim() : fail('an integer');
  },
  float: (value, fail) => toNumber(value) ?? fail('a number'),
  decimal: (value, fail) => {
    const number = toNumber(value);
    return number === null ? fail('a number') : typeof value === 'string' ? value.trim() : String(value);
  },
  boolean: (value, fail) => {
    if (value === true || value === 'true' || value === 1 || value === '1') return true;
    if (value === false || value === 'false' || value === 0 || value === '0') return false;
    return fail('a boolean');
  },
  date: (value, fail) => {
    if (value instanceof Date && !isStorableDate(value)) return fail('a date in the years 1 to 9999');
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    return typeof value === 'string' && validDate(value) ? value : fail('a date (YYYY-MM-DD)');
  },
  dateTime: castDateTime,
  time: (value, fail) => {
    if (value instanceof Date && !isStorableDate(value)) return fail('a time');
    if (value instanceof Date) return value.toISOString().slice(11, 23);
    return typeof value === 'string' && validTime(value) ? value : fail('a time (HH:MM:SS)');
  },
  uuid: (value, fail) => (typeof value === 'string' && isUuid(value) ? value : fail('a UUID')),
  csv: (value, fail, label) => {
    // csv is stored as comma-joined text and compared as such (as Directus does): a list joins first.
    if (!Array.isArray(value)) return castText(value, fail);
    if (!value.every((part) => typeof part === 'string' || typeof part === 'number')) return fail('a string or a list of strings');
    return castValue(value.join(','), 'text', label);
  },
  json: presenceOnly,
  geometry: presenceOnly,
  alias: presenceOnly,
} satisfies Record<ValueKind, (value: unknown, fail: Fail, label: string) => unknown>;

/**
 * Converts a filter value to the value the field's column compares with. Throws InvalidQueryError naming
 * the field (`label`) when the value cannot be one of that type, so bad input never reaches the database.
 */
export function castValue(value: unknown, type: FieldType, label: string): unknown {
  if (value === null) return null;
  const fail: Fail = (expected) => {
    throw new InvalidQueryError(`Invalid value ${JSON.stringify(value)} for field "${label}": expected ${expected}.`, { field: label });
  };
  return CASTS[fieldTypeTraits(type).value](value, fail, label);
}
