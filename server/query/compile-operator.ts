import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import type { FieldOverview } from '../schema/overview.ts';
import type { FieldType } from '../schema/types.ts';
import { BoundKeys, KeyParameter } from './bound-keys.ts';
import { castValue, NUMERIC_TYPES, TEMPORAL_TYPES, TEXT_TYPES } from './cast-value.ts';
import { FILTER_OPERATORS, GEOMETRY_OPERATORS } from './constants.ts';
import { and, type CompileContext, type Sql } from './context.ts';
import { resolveOperand } from './dynamic-values.ts';
import { postgresRegexProblem } from './postgres-regex.ts';
import { compileGeometryOperator } from './compile-geometry.ts';
import { isGeometryType } from '../schema/geometry-types.ts';
import { ownValue } from '../own-keys.ts';

/**
 * A field's column as the left side of a comparison. csv compares as its comma-joined text, also where the
 * column is a PostgreSQL array (a database Tessera did not create), so every csv filters like Directus's.
 */
export function fieldTarget(field: FieldOverview, ref: Sql, label: string): Target {
  const value = field.type === 'csv' && field.dbType === 'ARRAY' ? sql`array_to_string(${ref}, ',')` : ref;
  return { sql: value, type: field.type, label, ...(field.dbType === 'geometry' ? { postgis: true } : {}) };
}

/** The left side of a comparison: an SQL expression, the type its values have, and its name for messages. */
export interface Target {
  sql: Sql;
  type: FieldType;
  label: string;
  /** A PostGIS geometry column (server/query/compile-geometry.ts). */
  postgis?: boolean;
}

const EQUALITY = ['_eq', '_neq', '_in', '_nin', '_null', '_nnull'];
const ORDERED = [...EQUALITY, '_lt', '_lte', '_gt', '_gte', '_between', '_nbetween', '_empty', '_nempty'];
const PATTERNS: Record<string, { like: 'like' | 'ilike'; negate: boolean; start: string; end: string }> = {
  _contains: { like: 'like', negate: false, start: '%', end: '%' },
  _ncontains: { like: 'like', negate: true, start: '%', end: '%' },
  _icontains: { like: 'ilike', negate: false, start: '%', end: '%' },
  _nicontains: { like: 'ilike', negate: true, start: '%', end: '%' },
  _starts_with: { like: 'like', negate: false, start: '', end: '%' },
  _istarts_with: { like: 'ilike', negate: false, start: '', end: '%' },
  _nstarts_with: { like: 'like', negate: true, start: '', end: '%' },
  _nistarts_with: { like: 'ilike', negate: true, start: '', end: '%' },
  _ends_with: { like: 'like', negate: false, start: '%', end: '' },
  _iends_with: { like: 'ilike', negate: false, start: '%', end: '' },
  _nends_with: { like: 'like', negate: true, start: '%', end: '' },
  _niends_with: { like: 'ilike', negate: true, start: '%', end: '' },
};
const TEXTUAL = [...ORDERED, ...Object.keys(PATTERNS), '_regex'];

function operatorsFor(type: FieldType): readonly string[] {
  if (TEXT_TYPES.has(type) || type === 'uuid') return TEXTUAL;
  if (NUMERIC_TYPES.has(type) || TEMPORAL_TYPES.has(type)) return ORDERED;
  if (type === 'boolean') return EQUALITY;
  return ['_null', '_nnull'];
}

/** `value` with LIKE wildcards escaped, so it matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function fail(message: string, target: Target): never {
  throw new InvalidQueryError(message, { field: target.label });
}

/** One comparison operand: dynamic variables resolved, cast to the target's type; null stays null. */
function operand(ctx: CompileContext, target: Target, raw: unknown): Sql | null {
  const resolved = resolveOperand(ctx, raw, target.label, target.type);
  if (resolved.kind === 'sql') return resolved.sql;
  const value = castValue(resolved.value, target.type, target.label);
  return value === null ? null : sql.val(value);
}

function list(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  return typeof raw === 'string' ? raw.split(',') : [raw];
}

function flag(raw: unknown, target: Target, operator: string): boolean {
  const value = castValue(raw, 'boolean', target.label);
  return value === null ? fail(`${operator} on "${target.label}" takes true or false.`, target) : (value as boolean);
}

function textOf(target: Target): Sql {
  return TEXT_TYPES.has(target.type) ? target.sql : sql`${target.sql}::text`;
}

function emptiness(target: Target, empty: boolean): Sql {
  const textual = TEXT_TYPES.has(target.type);
  if (empty) return textual ? sql`(${target.sql} is null or ${target.sql} = '')` : sql`${target.sql} is null`;
  return textual ? sql`(${target.sql} is not null and ${target.sql} <> '')` : sql`${target.sql} is not null`;
}

function pattern(target: Target, operator: string, given: unknown): Sql {
  const rule = ownValue(PATTERNS, operator);
  const raw = target.type === 'csv' && Array.isArray(given) ? castValue(given, 'csv', target.label) : given;
  if (!rule || (typeof raw !== 'string' && typeof raw !== 'number')) return fail(`${operator} on "${target.label}" takes a string.`, target);
  if (String(raw).includes('\u0000')) return fail(`${operator} on "${target.label}" takes text without NUL characters.`, target);
  const value = `${rule.start}${escapeLike(String(raw))}${rule.end}`;
  return sql`${textOf(target)} ${sql.raw(rule.negate ? 'not ' : '')}${sql.raw(rule.like)} ${value}`;
}

function comparison(ctx: CompileContext, target: Target, operator: string, raw: unknown): Sql {
  const value = operand(ctx, target, raw);
  if (operator === '_eq') return value === null ? sql`${target.sql} is null` : sql`${target.sql} = ${value}`;
  if (operator === '_neq') return value === null ? sql`${target.sql} is not null` : sql`${target.sql} <> ${value}`;
  if (value === null) return fail(`${operator} on "${target.label}" needs a value.`, target);
  const symbol = { _lt: '<', _lte: '<=', _gt: '>', _gte: '>=' }[operator as '_lt'];
  return sql`${target.sql} ${sql.raw(symbol)} ${value}`;
}

/** The array type a list of values of each field type is bound as. */
const ARRAY_TYPES: Partial<Record<FieldType, string>> = {
  string: 'text[]',
  text: 'text[]',
  csv: 'text[]',
  hash: 'text[]',
  integer: 'bigint[]',
  bigInteger: 'bigint[]',
  float: 'double precision[]',
  decimal: 'numeric[]',
  boolean: 'boolean[]',
  date: 'date[]',
  dateTime: 'timestamp[]',
  timestamp: 'timestamptz[]',
  time: 'time[]',
  uuid: 'uuid[]',
};

/**
 * `_in`/`_nin`. Plain values are bound as ONE array parameter (`= any($1)`), so a list of any length fits
 * PostgreSQL's 65,535 parameters and the statement text (a prepared statement) does not change with its
 * length. Lists holding dynamic variables that are subqueries (`$CURRENT_USER.email`) keep `in (…)`.
 */
function membership(ctx: CompileContext, target: Target, operator: string, raw: unknown): Sql {
  if (raw instanceof BoundKeys) return boundMembership(target, operator, raw);
  const operands = list(raw).map((item) => {
    const resolved = resolveOperand(ctx, item, target.label, target.type);
    return resolved.kind === 'sql' ? resolved : { kind: 'value' as const, value: castValue(resolved.value, target.type, target.label) };
  });
  const negate = operator === '_nin';
  const arrayType = ARRAY_TYPES[target.type];
  if (arrayType && operands.every((item) => item.kind === 'value')) {
    const values = operands.flatMap((item) => (item.kind === 'value' && item.value !== null ? [item.value] : []));
    if (values.length === 0) return negate ? sql`true` : sql`false`;
    const array = sql`${sql.val(values)}::${sql.raw(arrayType)}`;
    return negate ? sql`${target.sql} <> all(${array})` : sql`${target.sql} = any(${array})`;
  }
  const values = operands.flatMap((item) => (item.kind === 'sql' ? [item.sql] : item.value === null ? [] : [sql.val(item.value)]));
  if (values.length === 0) return negate ? sql`true` : sql`false`;
  return sql`${target.sql} ${sql.raw(negate ? 'not in' : 'in')} (${sql.join(values)})`;
}

/** `_in` of a read by key: one array parameter whose values are bound when the statement runs (bound-keys.ts). */
function boundMembership(target: Target, operator: string, keys: BoundKeys): Sql {
  const arrayType = ARRAY_TYPES[target.type];
  if (operator !== '_in' || !arrayType) throw new Error(`Bound keys take _in on a key type, not ${operator} on ${target.type} "${target.label}".`);
  return sql`${target.sql} = any(${sql.val(new KeyParameter(keys, target.type, target.label))}::${sql.raw(arrayType)})`;
}

function between(ctx: CompileContext, target: Target, operator: string, raw: unknown): Sql {
  const values = list(raw);
  const [low, high] = values.map((item) => operand(ctx, target, item));
  if (values.length !== 2 || !low || !high) return fail(`${operator} on "${target.label}" takes two values, e.g. [1, 10].`, target);
  return sql`${target.sql} ${sql.raw(operator === '_between' ? 'between' : 'not between')} ${low} and ${high}`;
}

function regex(target: Target, raw: unknown): Sql {
  if (typeof raw !== 'string' || raw.includes('\u0000')) return fail(`_regex on "${target.label}" takes a string without NUL characters.`, target);
  try {
    new RegExp(raw);
  } catch {
    return fail(`_regex on "${target.label}" is not a valid regular expression.`, target);
  }
  const problem = postgresRegexProblem(raw);
  if (problem) return fail(`_regex on "${target.label}" is not a valid PostgreSQL regular expression: ${problem}.`, target);
  return sql`${textOf(target)} ~ ${raw}`;
}

/** One operator applied to a target, e.g. `_gt: 5`; validates the operator for the type and the value. */
export function compileOperator(ctx: CompileContext, target: Target, operator: string, raw: unknown): Sql {
  if (!(FILTER_OPERATORS as readonly string[]).includes(operator) || operator === '_some' || operator === '_none') {
    const hint = operator === '_some' || operator === '_none' ? ' (only one-to-many fields take it)' : '';
    return fail(`Unknown filter operator "${operator}" on field "${target.label}"${hint}.`, target);
  }
  if (GEOMETRY_OPERATORS.includes(operator)) {
    if (!isGeometryType(target.type)) return fail(`Operator ${operator} is only for geometry fields; "${target.label}" is ${target.type}.`, target);
    return compileGeometryOperator(target, operator, raw);
  }
  if (!operatorsFor(target.type).includes(operator)) {
    return fail(`Operator ${operator} cannot be used on ${target.type} field "${target.label}".`, target);
  }
  switch (operator) {
    case '_null':
    case '_nnull':
      return (operator === '_null') === flag(raw, target, operator) ? sql`${target.sql} is null` : sql`${target.sql} is not null`;
    case '_empty':
    case '_nempty':
      return emptiness(target, (operator === '_empty') === flag(raw, target, operator));
    case '_in':
    case '_nin':
      return membership(ctx, target, operator, raw);
    case '_between':
    case '_nbetween':
      return between(ctx, target, operator, raw);
    case '_regex':
      return regex(target, raw);
    default:
      return operator in PATTERNS ? pattern(target, operator, raw) : comparison(ctx, target, operator, raw);
  }
}

/** Every operator of `{ _gt: 1, _lt: 9 }` on one target, all of which must hold. */
export function compileOperators(ctx: CompileContext, target: Target, operators: Record<string, unknown>): Sql {
  const entries = Object.entries(operators);
  if (entries.length === 0) return fail(`The filter on "${target.label}" has no operator, e.g. {"_eq": …}.`, target);
  return and(entries.map(([operator, raw]) => compileOperator(ctx, target, operator, raw)));
}
