import qs from 'qs';
import { InvalidQueryError } from '../errors.ts';
import { AGGREGATE_FUNCTIONS, META_KEYS, type AggregateFunction, type MetaKey } from './constants.ts';
import { checkFilterShape, isObject, parseInteger, parseList, parseObject, parseText } from './parse-values.ts';
import type { Aggregate, DeepQuery, Filter, Query } from './types.ts';

/** Options of parseQuery. */
export interface ParseQueryOptions {
  /** Upper bound for `limit`; `limit=-1` means this many. */
  maxLimit?: number;
}

const QS_OPTIONS = {
  depth: 20,
  strictDepth: true,
  arrayLimit: 100,
  parameterLimit: 1000,
  throwOnLimitExceeded: true,
  ignoreQueryPrefix: true,
  // Null-prototype objects keep keys such as `constructor` or `toString` (the default drops them, and with
  // them the filter): they are then refused as unknown fields, or filter a field really named so.
  plainObjects: true,
} as const;

/** Refuses a `__proto__` key segment, which even null-prototype parsing drops silently. */
function assertNoProtoKeys(input: string): void {
  for (const pair of input.replace(/^\?/, '').split('&')) {
    const rawKey = pair.split('=', 1)[0] ?? '';
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      // qs reads a malformed escape literally; so does this check.
    }
    if (key.includes('__proto__')) {
      const parameter = key.split('[', 1)[0] ?? key;
      throw new InvalidQueryError(`"${key}": __proto__ is not a field, operator or option.`, { field: parameter });
    }
  }
}

function parseFilter(value: unknown, name: string): Filter {
  const filter = parseObject(value, name);
  checkFilterShape(filter, name);
  return filter as Filter;
}

function parseLimit(value: unknown, name: string, maxLimit: number | undefined): number {
  const limit = parseInteger(value, name, -1);
  if (maxLimit === undefined) return limit;
  if (limit === -1) return maxLimit;
  if (limit > maxLimit) throw new InvalidQueryError(`${name} ${limit} exceeds the maximum of ${maxLimit}.`);
  return limit;
}

function parseDeepOptions(value: unknown, name: string, maxLimit: number | undefined): DeepQuery {
  if (!isObject(value)) throw new InvalidQueryError(`${name} must be an object of _filter, _sort, _limit, _offset, _page, _search, _after or relations.`);
  const deep: DeepQuery = {};
  const nested: [string, DeepQuery][] = [];
  for (const [key, option] of Object.entries(value)) {
    const at = `${name}.${key}`;
    if (key === '_filter') deep.filter = parseFilter(option, at);
    else if (key === '_sort') deep.sort = parseList(option, at);
    else if (key === '_limit') deep.limit = parseLimit(option, at, maxLimit);
    else if (key === '_offset') deep.offset = parseInteger(option, at, 0);
    else if (key === '_page') deep.page = parseInteger(option, at, 1);
    else if (key === '_search') deep.search = parseText(option, at);
    else if (key === '_after') deep.after = parseText(option, at);
    else if (key.startsWith('_')) throw new InvalidQueryError(`Unknown deep option "${key}" in ${name}; use _filter, _sort, _limit, _offset, _page, _search or _after.`);
    else nested.push([key, parseDeepOptions(option, at, maxLimit)]);
  }
  if (nested.length > 0) deep.deep = Object.fromEntries(nested);
  return deep;
}

function parseDeep(value: unknown, maxLimit: number | undefined): Record<string, DeepQuery> {
  const entries = Object.entries(parseObject(value, 'deep')).map(([relation, options]): [string, DeepQuery] => {
    if (relation.startsWith('_')) throw new InvalidQueryError(`deep: "${relation}" must be inside a relation, e.g. deep[comments][${relation}].`);
    return [relation, parseDeepOptions(options, `deep.${relation}`, maxLimit)];
  });
  return Object.fromEntries(entries);
}

function parseAggregate(value: unknown): Aggregate {
  const entries = Object.entries(parseObject(value, 'aggregate')).map(([fn, fields]): [AggregateFunction, string[]] => {
    if (!(AGGREGATE_FUNCTIONS as readonly string[]).includes(fn)) {
      throw new InvalidQueryError(`Unknown aggregate function "${fn}"; use one of ${AGGREGATE_FUNCTIONS.join(', ')}.`);
    }
    const list = parseList(fields, `aggregate.${fn}`);
    if (list.length === 0 && fn !== 'countAll') throw new InvalidQueryError(`aggregate.${fn} needs a field (or * for count).`);
    return [fn as AggregateFunction, list];
  });
  return Object.fromEntries(entries);
}

function parseAlias(value: unknown): Record<string, string> {
  const entries = Object.entries(parseObject(value, 'alias')).map(([name, field]): [string, string] => [parseText(name, 'an alias name'), parseText(field, `alias.${name}`)]);
  return Object.fromEntries(entries);
}

/** The counts `meta` asks for (`*`: both), and whether it asks for `next_cursor`, which `*` leaves out as Directus's `*` has no cursor. */
function parseMeta(value: unknown): { counts: MetaKey[]; nextCursor: boolean } {
  const keys = parseList(value, 'meta');
  const nextCursor = keys.includes('next_cursor');
  const counts = keys.filter((key) => key !== 'next_cursor');
  if (counts.includes('*')) return { counts: [...META_KEYS], nextCursor };
  for (const key of counts) {
    if (!(META_KEYS as readonly string[]).includes(key)) throw new InvalidQueryError(`Unknown meta "${key}"; use total_count, filter_count, next_cursor or *.`, { field: 'meta' });
  }
  return { counts: [...new Set(counts)] as MetaKey[], nextCursor };
}

function parseRaw(input: string): Record<string, unknown> {
  assertNoProtoKeys(input);
  try {
    return qs.parse(input, QS_OPTIONS) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidQueryError(`The query string is too deep or too long: ${(error as Error).message}`);
  }
}

/**
 * Parses a URL query (`ctx.querystring`, with or without `?`, or an already parsed object) into a Query.
 * Accepts JSON (`filter={"title":{"_eq":"x"}}`) and bracket syntax (`filter[title][_eq]=x`) alike; unknown
 * parameters are ignored; anything malformed is an InvalidQueryError naming the parameter. A missing `limit`
 * stays unset: the read applies QUERY_LIMIT_DEFAULT (or a smaller `maxLimit`).
 */
export function parseQuery(input: string | Record<string, unknown>, options: ParseQueryOptions = {}): Query {
  const raw = typeof input === 'string' ? parseRaw(input) : input;
  const given = (name: string): boolean => Object.hasOwn(raw, name) && raw[name] !== '' && raw[name] !== undefined;
  const query: Query = {};
  if (given('fields')) query.fields = parseList(raw.fields, 'fields');
  if (given('filter')) query.filter = parseFilter(raw.filter, 'filter');
  if (given('sort')) query.sort = parseList(raw.sort, 'sort');
  if (given('limit')) query.limit = parseLimit(raw.limit, 'limit', options.maxLimit);
  if (given('offset')) query.offset = parseInteger(raw.offset, 'offset', 0);
  if (given('page')) query.page = parseInteger(raw.page, 'page', 1);
  if (given('search')) query.search = parseText(raw.search, 'search');
  if (given('aggregate')) query.aggregate = parseAggregate(raw.aggregate);
  if (given('groupBy')) query.groupBy = parseList(raw.groupBy, 'groupBy');
  if (given('deep')) query.deep = parseDeep(raw.deep, options.maxLimit);
  if (given('alias')) query.alias = parseAlias(raw.alias);
  if (given('meta')) {
    const { counts, nextCursor } = parseMeta(raw.meta);
    if (counts.length > 0 || !nextCursor) query.meta = counts;
    if (nextCursor) query.nextCursor = true;
  }
  if (given('after')) query.after = parseText(raw.after, 'after');
  return query;
}
