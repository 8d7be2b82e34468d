import { DateTime } from 'luxon';
import { InvalidPayloadError } from '../errors.ts';
import { parseRange } from './time-range.ts';
import { templateFields } from './display-template.ts';

/** Panel types (Directus 10 names) and what each computes: docs/insights.md. */
export const PANEL_TYPES = ['metric', 'time-series', 'bar-chart', 'pie-chart', 'list', 'label', 'meter', 'global-variable', 'relational-variable'] as const;
export type PanelType = (typeof PANEL_TYPES)[number];

/** Aggregates a panel may compute. */
export const PANEL_FUNCTIONS = ['count', 'countDistinct', 'sum', 'avg', 'min', 'max'] as const;
export type PanelFunction = (typeof PANEL_FUNCTIONS)[number];

export const PRECISIONS = ['year', 'month', 'week', 'day', 'hour'] as const;
export type Precision = (typeof PRECISIONS)[number];

export const VARIABLE_TYPES = ['string', 'integer', 'float', 'boolean', 'date', 'dateTime'] as const;
const CONDITION_OPERATORS = ['>=', '>', '=', '<', '<=', '!='] as const;
/** A variable's name as filters reference it: `{{ name }}`. */
export const VARIABLE_NAME = /^[a-z_][a-z0-9_]*$/;
const FIELD_NAME = /^[A-Za-z0-9_$]+$/;

export const LIST_LIMIT = { default: 5, max: 100 } as const;
export const GROUP_LIMIT = { default: 100, max: 1000 } as const;
export const CHOICES_LIMIT = { default: 100, max: 1000 } as const;

type Options = Record<string, unknown>;

function fail(key: string, message: string): never {
  throw new InvalidPayloadError(`"options.${key}" ${message}`, { field: `options.${key}` });
}

function isObject(value: unknown): value is Options {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A check of one option; absent (undefined or null) optional options pass. */
type Check = (options: Options, key: string) => void;

const present = (options: Options, key: string) => options[key] !== undefined && options[key] !== null;

const required =
  (check: Check): Check =>
  (options, key) => {
    if (!present(options, key)) fail(key, 'is required.');
    check(options, key);
  };

const text: Check = (options, key) => {
  if (present(options, key) && typeof options[key] !== 'string') fail(key, 'must be text.');
};

const name =
  (pattern: RegExp, hint: string): Check =>
  (options, key) => {
    if (!present(options, key)) return;
    const value = options[key];
    if (typeof value !== 'string' || !pattern.test(value)) fail(key, `must be ${hint}.`);
  };

const fieldName = name(FIELD_NAME, 'a field name (letters, digits, _)');
const collectionName = name(/^[A-Za-z0-9_]{1,64}$/, 'a collection name (letters, digits, _)');

const oneOf =
  (allowed: readonly string[]): Check =>
  (options, key) => {
    if (present(options, key) && !allowed.includes(options[key] as string)) fail(key, `must be one of: ${allowed.join(', ')}.`);
  };

const boolean: Check = (options, key) => {
  if (present(options, key) && typeof options[key] !== 'boolean') fail(key, 'must be true or false.');
};

const number: Check = (options, key) => {
  if (present(options, key) && (typeof options[key] !== 'number' || !Number.isFinite(options[key]))) fail(key, 'must be a number.');
};

const integer =
  (min: number, max: number): Check =>
  (options, key) => {
    if (!present(options, key)) return;
    const value = options[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(key, `must be a whole number from ${min} to ${max}.`);
  };

const filter: Check = (options, key) => {
  if (present(options, key) && !isObject(options[key])) fail(key, 'must be a filter object, e.g. {"status":{"_eq":"published"}}.');
};

const template: Check = (options, key) => {
  if (!present(options, key)) return;
  if (typeof options[key] !== 'string') fail(key, 'must be text such as "{{title}} – {{author.name}}".');
  try {
    templateFields(options[key]);
  } catch (error) {
    fail(key, (error as Error).message);
  }
};

const range: Check = (options, key) => {
  if (!present(options, key)) return;
  if (typeof options[key] !== 'string' || (options[key] !== 'auto' && !parseRange(options[key]))) fail(key, 'must be "auto" or a duration such as "7 days", "3 months" or "1 year".');
};

const conditions: Check = (options, key) => {
  if (!present(options, key)) return;
  const value = options[key];
  if (!Array.isArray(value)) fail(key, 'must be a list of {operator, value, color}.');
  value.forEach((rule: unknown, index) => {
    if (!isObject(rule)) fail(`${key}[${index}]`, 'must be {operator, value, color}.');
    const path = `${key}[${index}]`;
    if (!CONDITION_OPERATORS.includes(rule.operator as never)) fail(`${path}.operator`, `must be one of: ${CONDITION_OPERATORS.join(', ')}.`);
    if (typeof rule.value !== 'number' || !Number.isFinite(rule.value)) fail(`${path}.value`, 'must be a number.');
    if (typeof rule.color !== 'string') fail(`${path}.color`, 'must be a colour such as #2ECDA7.');
  });
};

const aggregate = required(oneOf(PANEL_FUNCTIONS));

/** An option Directus has and Tessera refuses rather than silently ignoring. */
const unsupported =
  (why: string): Check =>
  (options, key) => {
    if (present(options, key)) fail(key, `is not supported: ${why}.`);
  };

/** The options of each panel type; options not listed are kept as they are (display settings of the admin). */
const SHAPES: Record<PanelType, Record<string, Check>> = {
  metric: {
    collection: required(collectionName),
    field: required(fieldName),
    function: aggregate,
    filter,
    sortField: unsupported('metric functions are aggregates over every matching item, which no sort order changes (Directus uses it for first/last, which Tessera does not offer): remove it'),
    prefix: text,
    suffix: text,
    minimumFractionDigits: integer(0, 20),
    maximumFractionDigits: integer(0, 20),
    notation: oneOf(['standard', 'compact']),
    conditionalFormatting: conditions,
  },
  'time-series': {
    collection: required(collectionName),
    function: aggregate,
    valueField: required(fieldName),
    dateField: required(fieldName),
    precision: oneOf(PRECISIONS),
    range,
    filter,
    groupBy: fieldName,
    color: text,
    curveType: oneOf(['smooth', 'straight', 'stepline']),
    fillType: oneOf(['gradient', 'solid', 'disabled']),
    decimals: integer(0, 20),
  },
  'bar-chart': {
    collection: required(collectionName),
    xAxis: required(fieldName),
    yAxis: required(fieldName),
    function: aggregate,
    filter,
    horizontal: boolean,
    color: text,
    limit: integer(1, GROUP_LIMIT.max),
  },
  'pie-chart': {
    collection: required(collectionName),
    column: required(fieldName),
    function: aggregate,
    valueField: fieldName,
    filter,
    donut: boolean,
    showLabels: boolean,
    limit: integer(1, GROUP_LIMIT.max),
  },
  list: {
    collection: required(collectionName),
    limit: integer(1, LIST_LIMIT.max),
    sortField: fieldName,
    sortDirection: oneOf(['asc', 'desc']),
    displayTemplate: required(template),
    filter,
  },
  label: { text: required(text), color: text, whiteSpace: oneOf(['normal', 'nowrap', 'pre', 'pre-wrap', 'pre-line', 'break-spaces']) },
  meter: {
    collection: required(collectionName),
    field: required(fieldName),
    function: aggregate,
    filter,
    goal: required(number),
    color: text,
    size: oneOf(['full', 'half']),
  },
  'global-variable': {
    field: required(name(VARIABLE_NAME, 'a variable name: lower-case letters, digits and _, not starting with a digit')),
    type: required(oneOf(VARIABLE_TYPES)),
  },
  'relational-variable': {
    field: required(name(VARIABLE_NAME, 'a variable name: lower-case letters, digits and _, not starting with a digit')),
    collection: required(collectionName),
    multiple: boolean,
    limit: integer(1, CHOICES_LIMIT.max),
    displayTemplate: template,
    filter,
  },
};

/** Whether `value` fits a global variable of `type`. */
export function fitsVariableType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value).isValid;
    case 'dateTime':
      return typeof value === 'string' && DateTime.fromISO(value).isValid;
    default:
      return false;
  }
}

/** Rules between options that single checks cannot see. */
function crossChecks(type: PanelType, options: Options): void {
  if (type === 'pie-chart' && options.function !== 'count' && !present(options, 'valueField')) fail('valueField', `is required when function is ${String(options.function)}.`);
  if (type === 'time-series' && present(options, 'groupBy') && options.groupBy === options.dateField) fail('groupBy', 'must differ from dateField.');
  if (type === 'global-variable' && present(options, 'defaultValue') && !fitsVariableType(options.type as string, options.defaultValue)) {
    fail('defaultValue', `must be a ${String(options.type)} value.`);
  }
}

/**
 * The id of a panel an admin extension registers (docs/extensions.md): its type is any other such id. Its
 * definition lives in the admin's JavaScript, so the server cannot list them; it stores the options as
 * they are and computes nothing for it (the panel reads its data with the admin SDK).
 */
const EXTENSION_PANEL_TYPE = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

/** Whether `type` is one of Tessera's own panel types (the server computes their data). */
export function isBuiltInPanelType(type: unknown): type is PanelType {
  return PANEL_TYPES.includes(type as PanelType);
}

/** `type` checked: INVALID_PAYLOAD naming `type` for anything but a panel type or an extension panel's id. */
export function checkPanelType(type: unknown): string {
  if (isBuiltInPanelType(type) || (typeof type === 'string' && type.length <= 64 && EXTENSION_PANEL_TYPE.test(type))) return type;
  throw new InvalidPayloadError(`"type" must be one of: ${PANEL_TYPES.join(', ')}, or the id of an admin extension's panel (lower-case letters, digits, - and _).`, { field: 'type' });
}

/** Validates a panel's options for its type; INVALID_PAYLOAD naming `options.<key>` for the first problem. */
export function validatePanelOptions(type: unknown, options: unknown): Options {
  const panelType = checkPanelType(type);
  if (options !== undefined && options !== null && !isObject(options)) throw new InvalidPayloadError('"options" must be an object.', { field: 'options' });
  const value = (options ?? {}) as Options;
  if (!isBuiltInPanelType(panelType)) return value;
  for (const [key, check] of Object.entries(SHAPES[panelType])) check(value, key);
  crossChecks(panelType, value);
  return value;
}
