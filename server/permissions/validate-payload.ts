import type { Accountability } from '../auth/accountability.ts';
import { FailedValidationError, InvalidPayloadError } from '../errors.ts';
import type { Filter } from '../query/types.ts';
import { resolveDynamicValue } from './dynamic-values.ts';
import { ownValue } from '../own-keys.ts';

type Payload = Record<string, unknown>;

/** How a payload is checked: a create checks every rule; an update only the fields it sends. */
export type ValidationMode = 'create' | 'update';

interface Failure {
  field: string;
  operator: string;
  expected: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function comparable(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const time = Date.parse(value);
    if (!Number.isNaN(time)) return time;
  }
  return value;
}

const same = (a: unknown, b: unknown): boolean => a === b || (a !== null && b !== null && String(comparable(a)) === String(comparable(b)));
const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

function order(a: unknown, b: unknown): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  const x = comparable(a);
  const y = comparable(b);
  const nx = typeof x === 'number' ? x : Number(x);
  const ny = typeof y === 'number' ? y : Number(y);
  if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
  return String(x).localeCompare(String(y));
}

const list = (expected: unknown): unknown[] => (Array.isArray(expected) ? expected : typeof expected === 'string' ? expected.split(',') : [expected]);

/** Whether `value` meets `operator` with `expected` (the query language's operators, evaluated in memory). */
function meets(operator: string, value: unknown, expected: unknown): boolean {
  switch (operator) {
    case '_eq':
      return expected === null ? value === null || value === undefined : same(value, expected);
    case '_neq':
      return expected === null ? value !== null && value !== undefined : !same(value, expected);
    case '_lt':
    case '_lte':
    case '_gt':
    case '_gte': {
      const difference = order(value, expected);
      if (difference === null) return false;
      return operator === '_lt' ? difference < 0 : operator === '_lte' ? difference <= 0 : operator === '_gt' ? difference > 0 : difference >= 0;
    }
    case '_in':
      return list(expected).some((entry) => same(value, entry));
    case '_nin':
      return !list(expected).some((entry) => same(value, entry));
    case '_null':
      return (expected === true || expected === 'true') === (value === null || value === undefined);
    case '_nnull':
      return (expected === true || expected === 'true') === (value !== null && value !== undefined);
    case '_empty':
      return (expected === true || expected === 'true') === isEmpty(value);
    case '_nempty':
      return (expected === true || expected === 'true') !== isEmpty(value);
    case '_contains':
      return value !== null && value !== undefined && text(value).includes(text(expected));
    case '_ncontains':
      return !text(value).includes(text(expected));
    case '_icontains':
      return value !== null && value !== undefined && text(value).toLowerCase().includes(text(expected).toLowerCase());
    case '_nicontains':
      return !text(value).toLowerCase().includes(text(expected).toLowerCase());
    case '_starts_with':
      return value !== null && value !== undefined && text(value).startsWith(text(expected));
    case '_istarts_with':
      return value !== null && value !== undefined && text(value).toLowerCase().startsWith(text(expected).toLowerCase());
    case '_nstarts_with':
      return !text(value).startsWith(text(expected));
    case '_nistarts_with':
      return !text(value).toLowerCase().startsWith(text(expected).toLowerCase());
    case '_ends_with':
      return value !== null && value !== undefined && text(value).endsWith(text(expected));
    case '_iends_with':
      return value !== null && value !== undefined && text(value).toLowerCase().endsWith(text(expected).toLowerCase());
    case '_nends_with':
      return !text(value).endsWith(text(expected));
    case '_niends_with':
      return !text(value).toLowerCase().endsWith(text(expected).toLowerCase());
    case '_between':
    case '_nbetween': {
      const [low, high] = list(expected);
      const inside = order(value, low) !== null && (order(value, low) as number) >= 0 && (order(value, high) as number) <= 0;
      return operator === '_between' ? inside : !inside;
    }
    case '_regex':
      return value !== null && value !== undefined && new RegExp(text(expected)).test(text(value));
    default:
      throw new InvalidPayloadError(`The validation rule uses "${operator}", which cannot check a written value.`, { field: operator });
  }
}

/** Operators `meets` can evaluate on a written value. */
const CHECKABLE_OPERATORS = new Set([
  '_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_in', '_nin', '_null', '_nnull', '_empty', '_nempty',
  '_contains', '_ncontains', '_icontains', '_nicontains', '_starts_with', '_istarts_with', '_nstarts_with', '_nistarts_with',
  '_ends_with', '_iends_with', '_nends_with', '_niends_with', '_between', '_nbetween', '_regex',
]);

/**
 * What is wrong with a validation rule before anyone writes against it (an operator that cannot judge a
 * written value, a regular expression that does not compile, a shape that is not a filter), or null.
 */
export function validationRuleProblem(rule: unknown, path = ''): string | null {
  if (!isObject(rule)) return `${path || 'the rule'} must be an object`;
  for (const [key, condition] of Object.entries(rule)) {
    const at = path ? `${path}.${key}` : key;
    if (key === '_and' || key === '_or') {
      if (!Array.isArray(condition)) return `${at} must be a list of rules`;
      for (const [index, part] of condition.entries()) {
        const problem = validationRuleProblem(part, `${at}[${index}]`);
        if (problem) return problem;
      }
      continue;
    }
    if (key.startsWith('_')) return `${at}: "${key}" is not a field; rules name fields, then operators`;
    if (!isObject(condition)) return `${at} must be an object of operators`;
    const operators = Object.keys(condition).filter((name) => name.startsWith('_'));
    if (operators.length === 0) {
      const problem = validationRuleProblem(condition, at);
      if (problem) return problem;
      continue;
    }
    for (const operator of operators) {
      if (!CHECKABLE_OPERATORS.has(operator)) return `${at} uses "${operator}", which cannot check a written value`;
      if (operator !== '_regex') continue;
      try {
        new RegExp(text(condition[operator]));
      } catch {
        return `${at}._regex is not a valid regular expression`;
      }
    }
  }
  return null;
}

/**
 * The key a relational object value stands for (`{ id: 5, … }` links item 5), or undefined when it does
 * not name one (it creates an item). `path` is the field's dotted path from the validated payload.
 */
export type RelatedKeyOf = (path: string, value: Payload) => unknown;

function check(filter: Filter, payload: Payload, mode: ValidationMode, accountability: Accountability, prefix: string, keyOf?: RelatedKeyOf): Failure | null {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '_and' || key === '_or') {
      const parts = Array.isArray(condition) ? (condition as Filter[]) : [];
      const failures = parts.map((part) => check(part, payload, mode, accountability, prefix, keyOf));
      if (key === '_and') {
        const failure = failures.find((entry) => entry !== null);
        if (failure) return failure;
      } else if (parts.length > 0 && failures.every((entry) => entry !== null)) return failures[0]!;
      continue;
    }
    const field = `${prefix}${key}`;
    // An update is checked on what it changes; fields it leaves alone were checked when they were written.
    if (mode === 'update' && !Object.hasOwn(payload, key)) continue;
    const value = payload[key];
    if (!isObject(condition)) continue;
    const operators = Object.keys(condition).filter((name) => name.startsWith('_'));
    if (operators.length === 0) {
      // A rule on a related item's fields checks the nested object written with it; a bare key cannot be checked.
      if (!isObject(value)) return { field, operator: 'object', expected: condition };
      const nested = check(condition as Filter, value, mode, accountability, `${field}.`, keyOf);
      if (nested) return nested;
      continue;
    }
    // A relational object that links an existing item is compared as that item's key: the value stored.
    const linked = isObject(value) && keyOf ? keyOf(field, value) : undefined;
    const compared = linked === undefined ? value : linked;
    for (const operator of operators) {
      const expected = resolveDynamicValue(condition[operator], accountability);
      if (!meets(operator, compared, expected)) return { field, operator, expected };
    }
  }
  return null;
}

const DESCRIPTIONS: Record<string, (expected: unknown) => string> = {
  _eq: (expected) => `must equal ${JSON.stringify(expected)}`,
  _neq: (expected) => `must not equal ${JSON.stringify(expected)}`,
  _null: (expected) => (expected === true || expected === 'true' ? 'must be empty (null)' : "can't be null"),
  _nnull: (expected) => (expected === true || expected === 'true' ? "can't be null" : 'must be null'),
  _in: (expected) => `must be one of ${JSON.stringify(list(expected))}`,
  _nin: (expected) => `must not be one of ${JSON.stringify(list(expected))}`,
  object: () => 'must be given as an object to check its fields',
};

/**
 * Checks a payload against a validation rule (a permission's, or a field's); the first broken condition is
 * a 400 FAILED_VALIDATION naming the field and the operator, with `message` when the rule has its own.
 */
export function assertValidPayload(rule: Filter | null, payload: Payload, mode: ValidationMode, accountability: Accountability, keyOf?: RelatedKeyOf, message?: string | null): void {
  if (!rule) return;
  const failure = check(rule, payload, mode, accountability, '', keyOf);
  if (!failure) return;
  const describe = ownValue(DESCRIPTIONS, failure.operator) ?? ((expected: unknown) => `must meet ${failure.operator} ${JSON.stringify(expected)}`);
  throw new FailedValidationError(message || `Validation failed for field "${failure.field}": it ${describe(failure.expected)}.`, {
    field: failure.field,
    type: failure.operator,
  });
}
