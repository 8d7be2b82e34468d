import type { FieldCondition, FieldInfo } from './schema/types.ts';

type Values = Record<string, unknown>;

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function compare(value: unknown, operator: string, expected: unknown): boolean {
  const list = Array.isArray(expected) ? expected : typeof expected === 'string' ? expected.split(',') : [expected];
  switch (operator) {
    case '_eq':
      return expected === null ? isEmpty(value) : String(value) === String(expected);
    case '_neq':
      return expected === null ? !isEmpty(value) : String(value) !== String(expected);
    case '_in':
      return list.map(String).includes(String(value));
    case '_nin':
      return !list.map(String).includes(String(value));
    case '_null':
      return (value === null || value === undefined) === Boolean(expected);
    case '_nnull':
      return (value !== null && value !== undefined) === Boolean(expected);
    case '_empty':
      return isEmpty(value) === Boolean(expected);
    case '_nempty':
      return !isEmpty(value) === Boolean(expected);
    case '_gt':
      return Number(value) > Number(expected);
    case '_gte':
      return Number(value) >= Number(expected);
    case '_lt':
      return Number(value) < Number(expected);
    case '_lte':
      return Number(value) <= Number(expected);
    case '_contains':
      return typeof value === 'string' && value.includes(String(expected));
    case '_icontains':
      return typeof value === 'string' && value.toLowerCase().includes(String(expected).toLowerCase());
    case '_ncontains':
      return !(typeof value === 'string' && value.includes(String(expected)));
    case '_starts_with':
      return typeof value === 'string' && value.startsWith(String(expected));
    case '_ends_with':
      return typeof value === 'string' && value.endsWith(String(expected));
    default:
      return false;
  }
}

/**
 * Whether the values being edited match a filter (the rule of a field condition). Supports `_and`,
 * `_or`, nested m2o paths on loaded objects and the comparison operators of the query language.
 */
export function matchesRule(rule: Record<string, unknown> | null | undefined, values: Values): boolean {
  if (!rule) return true;
  return Object.entries(rule).every(([key, condition]) => {
    if (key === '_and') return (condition as Record<string, unknown>[]).every((part) => matchesRule(part, values));
    if (key === '_or') return (condition as Record<string, unknown>[]).some((part) => matchesRule(part, values));
    if (!condition || typeof condition !== 'object') return false;
    const value = values[key];
    return Object.entries(condition as Record<string, unknown>).every(([operator, expected]) => {
      if (operator.startsWith('_')) return compare(value, operator, expected);
      // A nested path (author.name): look inside the loaded related object.
      return value && typeof value === 'object' ? matchesRule({ [operator]: expected }, value as Values) : false;
    });
  });
}

/** A field's state for the form: metadata, then every matching condition in order (later wins). */
export interface FieldState {
  hidden: boolean;
  readonly: boolean;
  required: boolean;
  options: Record<string, unknown>;
}

/** Applies `meta.conditions` to the field's metadata for the current values. */
export function fieldState(field: FieldInfo, values: Values): FieldState {
  const state: FieldState = {
    hidden: Boolean(field.meta?.hidden),
    readonly: Boolean(field.meta?.readonly),
    required: Boolean(field.meta?.required),
    options: { ...field.meta?.options },
  };
  for (const condition of (field.meta?.conditions ?? []) as FieldCondition[]) {
    if (!matchesRule(condition.rule, values)) continue;
    if (condition.hidden !== undefined) state.hidden = condition.hidden;
    if (condition.readonly !== undefined) state.readonly = condition.readonly;
    if (condition.required !== undefined) state.required = condition.required;
    if (condition.options) state.options = { ...state.options, ...condition.options };
  }
  return state;
}
