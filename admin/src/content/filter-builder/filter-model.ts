import type { TesseraFilter } from '../../providers/query-mapping.ts';
import { valueKindOf, type ValueKind } from '../field-type-table.ts';

/** One condition of the filter builder: field, operator and value (as the user typed it). */
export interface FilterRule {
  field: string;
  operator: string;
  value: unknown;
}

/** The builder's state: conditions joined by AND (all must match) or OR (any). */
export interface FilterGroup {
  logic: 'and' | 'or';
  rules: FilterRule[];
}

/** Operators that take no value. */
const VALUELESS = new Set(['_null', '_nnull', '_empty', '_nempty']);

const TEXT = ['_icontains', '_ncontains', '_eq', '_neq', '_starts_with', '_ends_with', '_in', '_nin', '_empty', '_nempty', '_null', '_nnull'];
const NUMBER = ['_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_between', '_in', '_nin', '_null', '_nnull'];
const DATE = ['_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_between', '_null', '_nnull'];
const BOOLEAN = ['_eq', '_neq', '_null', '_nnull'];
const PRESENCE = ['_null', '_nnull'];

/** The operators of each value kind (json, geometry and alias fields only take presence, as the API does). */
const OPERATORS = {
  string: TEXT,
  text: TEXT,
  csv: TEXT,
  uuid: TEXT,
  hash: TEXT,
  integer: NUMBER,
  bigInteger: NUMBER,
  float: NUMBER,
  decimal: NUMBER,
  date: DATE,
  time: DATE,
  dateTime: DATE,
  boolean: BOOLEAN,
  json: PRESENCE,
  geometry: PRESENCE,
  alias: PRESENCE,
} satisfies Record<ValueKind, string[]>;

/** The operators that make sense for a field type. */
export function operatorsFor(type: string): string[] {
  return OPERATORS[valueKindOf(type)];
}

/** Whether the operator needs a value. */
export function needsValue(operator: string): boolean {
  return !VALUELESS.has(operator);
}

/** A whole `{{ name }}` reference to a dashboard variable (panel filters): its value replaces it on the server. */
const VARIABLE_REFERENCE = /^\{\{\s*[a-z_][a-z0-9_]*\s*\}\}$/;

function ruleValue(rule: FilterRule): unknown {
  if (!needsValue(rule.operator)) return true;
  // A list operator given one variable reference takes the variable's list as it is (a multiple relational variable).
  if (typeof rule.value === 'string' && VARIABLE_REFERENCE.test(rule.value.trim())) return rule.value.trim();
  if ((rule.operator === '_in' || rule.operator === '_nin' || rule.operator === '_between') && typeof rule.value === 'string') {
    return rule.value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  }
  return rule.value;
}

/** Whether a rule is complete enough to filter (a field, an operator, and a value when one is needed). */
export function isComplete(rule: FilterRule): boolean {
  if (!rule.field || !rule.operator) return false;
  if (!needsValue(rule.operator)) return true;
  const value = ruleValue(rule);
  return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** The builder's state as a filter of the query language, or null when no rule is complete. */
export function toFilter(group: FilterGroup): TesseraFilter | null {
  const parts = group.rules.filter(isComplete).map((rule) => {
    const condition = { [rule.operator]: ruleValue(rule) };
    return rule.field
      .split('.')
      .reverse()
      .reduce<unknown>((inner, key) => ({ [key]: inner }), condition) as TesseraFilter;
  });
  if (parts.length === 0) return null;
  if (parts.length === 1 && group.logic === 'and') return parts[0] as TesseraFilter;
  return { [`_${group.logic}`]: parts };
}

/** How many rules are active (the badge on the filter button). */
export function activeRules(group: FilterGroup): number {
  return group.rules.filter(isComplete).length;
}
