import { InvalidQueryError } from '../errors.ts';
import { GEOMETRY_OPERATORS } from './constants.ts';

/** True for a plain object (JSON or qs output), not an array or null. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parameter that must be given once, as text. */
export function parseText(value: unknown, name: string): string {
  if (typeof value === 'string' && value.includes('\u0000')) throw new InvalidQueryError(`${name} cannot contain NUL characters.`);
  if (typeof value === 'string') return value;
  throw new InvalidQueryError(`${name} must be given once, as text.`);
}

/** A comma-separated list (`a,b`), repeated or bracketed parameters (`a[]=x&a[]=y`), or a JSON array. */
export function parseList(value: unknown, name: string): string[] {
  let items: unknown[];
  if (typeof value === 'string') {
    const trimmed = value.trim();
    items = trimmed.startsWith('[') ? (parseJson(trimmed, name) as unknown[]) : [trimmed];
    if (!Array.isArray(items)) throw new InvalidQueryError(`${name} must be a list.`);
  } else if (Array.isArray(value)) items = value;
  else throw new InvalidQueryError(`${name} must be a comma-separated list.`);
  return items.flatMap((item) => {
    if (typeof item !== 'string') throw new InvalidQueryError(`${name} must be a list of names; got ${JSON.stringify(item)}.`);
    return item
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  });
}

/** How deeply JSON parameters may nest; bracket syntax is bounded by the query-string parser's depth. */
export const MAX_JSON_DEPTH = 64;

function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return levels === 0 || Object.values(value).some((inner) => deeperThan(inner, levels - 1));
}

/** JSON text parsed, naming the parameter when it is not valid JSON or nests too deeply. */
export function parseJson(text: string, name: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidQueryError(`${name} is not valid JSON: ${(error as Error).message}.`);
  }
  assertShallow(value, name);
  return value;
}

/** Refuses a value (a JSON body's query, say) that nests deeper than JSON parameters may. */
export function assertShallow(value: unknown, name: string): void {
  if (deeperThan(value, MAX_JSON_DEPTH)) throw new InvalidQueryError(`${name} nests deeper than ${MAX_JSON_DEPTH} levels.`, { field: name });
}

/** An object given as JSON text or in bracket syntax (`name[key]=value`), or already parsed (a JSON body). */
export function parseObject(value: unknown, name: string): Record<string, unknown> {
  const parsed = typeof value === 'string' ? parseJson(value, name) : value;
  if (typeof value !== 'string') assertShallow(parsed, name);
  if (!isObject(parsed)) throw new InvalidQueryError(`${name} must be an object, as JSON or in bracket syntax (${name}[key]=value).`);
  return parsed;
}

/** An integer of at least `minimum`, from text or a number. */
export function parseInteger(value: unknown, name: string, minimum: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < minimum) {
    throw new InvalidQueryError(`${name} must be an integer of at least ${minimum}; got ${JSON.stringify(value)}.`);
  }
  return number;
}

/**
 * Checks a filter's shape, naming the bad path: at filter level keys are fields or `_and`/`_or` lists; inside
 * a field they are operators (scalar or list values), `_some`/`_none` filters, or fields of a relation.
 */
export function checkFilterShape(value: unknown, path: string, inField = false): void {
  if (!isObject(value)) throw new InvalidQueryError(`${path} must be an object, e.g. {"title":{"_eq":"x"}}.`);
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (key === '_and' || key === '_or') {
      if (!Array.isArray(inner)) throw new InvalidQueryError(`${at} must be a list of filters.`);
      inner.forEach((item, index) => checkFilterShape(item, `${at}[${index}]`));
    } else if (key === '_some' || key === '_none') {
      checkFilterShape(inner, at);
    } else if (!key.startsWith('_')) {
      if (!isObject(inner)) throw new InvalidQueryError(`${at} must be an object of operators, e.g. {"${key}":{"_eq":…}}.`);
      checkFilterShape(inner, at, true);
    } else if (!inField) {
      throw new InvalidQueryError(`${at}: "${key}" is not a logical operator (_and, _or); comparison operators go inside a field.`);
    } else if (GEOMETRY_OPERATORS.includes(key)) {
      // A GeoJSON geometry: the operator checks it (server/query/compile-geometry.ts).
      continue;
    } else if (isObject(inner) || (Array.isArray(inner) && inner.some((item) => typeof item === 'object' && item !== null))) {
      throw new InvalidQueryError(`${at} must be a value or a list of values.`);
    }
  }
}
