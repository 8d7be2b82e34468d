import { random } from '../../../bench/data.ts';

/**
 * Hostile input for the fuzz tests (fuzz-input.test.ts, tests/integration/http/fuzz-routes.test.ts): keys,
 * operators and values that once broke something, and a seeded generator of filters, queries, query strings
 * and payloads built from them.
 */
export const KEYS = ['title', 'n', 'big', 'price', 'ratio', 'flag', 'born', 'seen', 'at', 'clock', 'uid', 'data', 'tags', 'parent', 'children', 'id', 'nope', 'constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf', 'prototype', '', '.', '*', 'parent.title', 'children.n', 'children.parent.title', 'count(children)', 'year(born)', 'hour(clock)'];
export const OPERATORS = ['_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_in', '_nin', '_null', '_nnull', '_empty', '_nempty', '_contains', '_icontains', '_ncontains', '_starts_with', '_ends_with', '_between', '_nbetween', '_regex', '_nicontains', '_nistarts_with', '_niends_with', '_intersects', '_nintersects_bbox', '_some', '_none', '_and', '_or', 'constructor', '__proto__', '_foo'];
export const VALUES: unknown[] = [
  1, -1, 0, 2.5, 1e308, -1e308, 2 ** 53, 2 ** 63, 9007199254740991, '9223372036854775808', '-9223372036854775809', '1e309', 'NaN', 'Infinity',
  'abc', '', ' ', null, true, false, 'true', [], [1, 2], ['a', null], {}, { _eq: 1 }, { constructor: 1 },
  '$CURRENT_USER', '$CURRENT_USER.email', '$CURRENT_USER.role', '$CURRENT_ROLE.name', '$CURRENT_USER.password', '$CURRENT_USER.nope', '$NOW', '$NOW(-1 day)',
  '$NOW(-99999999999 year)', '$NOW(+300000 year)', '$NOW(99999999999999999999 second)', '$NOW(', '$NOW(1 fortnight)',
  '0000-01-01', '0001-01-01', '9999-12-31', '10000-01-01', '2024-02-30', '2024-13-01', '2024-01-01T25:00:00Z', '24:00:00', '-infinity', 'epoch', 'today',
  '(?<n>a)', '\\p{L}', 'a{1,100000}', '\\k<n>', '(a', '[', '\\', '\\1', '(?i)a', '*', '+', '.*', '%', '_', "'", '"', ';--',
  '11111111-1111-4111-8111-111111111111', 'not-a-uuid', '\u0000', 'nul\u0000byte', '\ud800', '😀', 'x'.repeat(5000),
];

/** encodeURIComponent, with a lone surrogate sent as the (invalid UTF-8) bytes a hostile client would send. */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[\ud800-\udfff]/g, '%ED%A0%80').split('%ED%A0%80').map(encodeURIComponent).join('%ED%A0%80');
  }
}

/** Fields of `things` with operators their type takes: a hostile value then meets a valid query around it. */
export const TYPED: Array<[string, string[]]> = [
  ['title', ['_eq', '_in', '_nin', '_contains', '_regex', '_starts_with', '_gt', '_between', '_nicontains', '_nistarts_with', '_niends_with']],
  ['tags', ['_eq', '_in', '_contains', '_icontains', '_niends_with', '_empty']],
  ['n', ['_eq', '_in', '_nin', '_gt', '_lte', '_between']],
  ['big', ['_eq', '_in', '_gt']],
  ['price', ['_eq', '_in', '_lt']],
  ['ratio', ['_eq', '_gt', '_nin']],
  ['flag', ['_eq', '_neq', '_in']],
  ['born', ['_eq', '_gt', '_lt', '_in', '_between']],
  ['seen', ['_eq', '_gt', '_lte', '_in', '_nbetween']],
  ['at', ['_eq', '_gt', '_in']],
  ['clock', ['_eq', '_gt', '_in']],
  ['uid', ['_eq', '_in', '_contains']],
  ['parent', ['_eq', '_in', '_null']],
  ['year(born)', ['_eq', '_gt', '_in']],
  ['count(children)', ['_eq', '_gt']],
];
export const GOOD_FIELDS = ['id', 'title', 'n', '*', 'parent.title', 'children.n', 'count(children)', 'year(born)', 'data', 'tags'];

export class Generator {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = random(seed);
  }
  int(max: number): number {
    return Math.floor(this.#next() * max);
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  value(): unknown {
    if (this.chance(0.05)) return Array.from({ length: this.pick([3, 100, 20_000]) }, (_, i) => (this.chance(0.5) ? i : `v${i}`));
    return this.pick(VALUES);
  }
  filter(depth = 0): unknown {
    if (this.chance(0.03)) return this.value();
    if (depth < 3 && this.chance(0.25)) {
      return { [this.pick(['_and', '_or', '_some', 'constructor'])]: Array.from({ length: this.int(3) + 1 }, () => this.filter(depth + 1)) };
    }
    if (this.chance(0.03)) return this.nested(this.pick([40, 70, 2_000]));
    if (this.chance(0.6)) {
      const [field, operators] = this.pick(TYPED);
      return { [field]: { [this.pick(operators)]: this.value() } };
    }
    const key = this.pick(KEYS);
    const operator = this.pick(OPERATORS);
    const inner = operator === '_some' || operator === '_none' || operator === '_and' ? this.filter(depth + 1) : this.value();
    return { [key]: this.chance(0.05) ? this.value() : { [operator]: inner } };
  }
  nested(depth: number): unknown {
    let filter: unknown = { n: { _eq: 1 } };
    for (let i = 0; i < depth; i++) filter = { [this.chance(0.5) ? '_and' : '_or']: [filter] };
    return filter;
  }
  fields(): string {
    if (this.chance(0.1)) return Array.from({ length: this.pick([3, 9, 12]) }, () => '*').join('.');
    if (this.chance(0.6)) return Array.from({ length: this.int(3) + 1 }, () => this.pick(GOOD_FIELDS)).join(',');
    return Array.from({ length: this.int(4) + 1 }, () => this.pick(KEYS)).join(',');
  }
  /** A plausible query, so that many reads succeed and the hostile parts meet a working pipeline. */
  mildQuery(): Record<string, unknown> {
    const field = this.pick(['n', 'title', 'born', 'seen', 'flag', 'id']);
    const value = { n: this.int(12), title: 'thing 3', born: '2015-01-01', seen: '$NOW(-1 year)', flag: this.chance(0.5), id: this.int(12) }[field];
    return {
      fields: this.pick(['id,title', '*', 'id,parent.title,children.n', 'id,count(children)']),
      filter: { [field]: { [this.pick(['_eq', '_neq', '_gt', '_lte', '_in', '_nnull'])]: value } },
      sort: this.pick(['id', '-n', 'title']),
      limit: this.pick([1, 5, 100]),
    };
  }
  /** Query parameters as an object; objects go out as JSON or in bracket syntax. */
  query(): Record<string, unknown> {
    const query: Record<string, unknown> = {};
    if (this.chance(0.5)) query.fields = this.fields();
    if (this.chance(0.7)) query.filter = this.filter();
    if (this.chance(0.2)) query.sort = `${this.chance(0.3) ? '-' : ''}${this.pick(KEYS)}`;
    if (this.chance(0.2)) query.search = this.pick(VALUES.filter((value) => typeof value === 'string'));
    if (this.chance(0.2)) query.limit = this.pick([1, -1, 0, 'x', 10_000, 9007199254740991, 1e21, '1e3', ' 5 ']);
    if (this.chance(0.15)) query.offset = this.pick([1, -1, 'x', 9007199254740991, 2 ** 63, '1.5']);
    if (this.chance(0.15)) query.page = this.pick([1, 0, -1, 'x', 2, 9007199254740991, 2 ** 40]);
    if (this.chance(0.15)) query.deep = { [this.pick(KEYS)]: { [this.pick(['_filter', '_limit', '_page', '_sort', '_offset', 'constructor', '__proto__'])]: this.chance(0.5) ? this.filter(1) : this.value() } };
    if (this.chance(0.15)) query.aggregate = { [this.pick(['count', 'sum', 'avg', 'min', 'max', 'countDistinct', 'constructor', 'toString'])]: this.pick(KEYS) };
    if (this.chance(0.1)) query.groupBy = this.pick(KEYS);
    if (this.chance(0.1)) query.alias = { [this.pick(KEYS)]: this.pick(KEYS) };
    if (this.chance(0.1)) query.meta = this.pick(['*', 'total_count', 'filter_count', 'bogus', 'constructor']);
    if (this.chance(0.05)) query[this.pick(['constructor', '__proto__', 'toString', 'hasOwnProperty'])] = this.value();
    return query;
  }
  /** The query as a query string: JSON values, bracket syntax, or (rarely) raw garbage. */
  queryString(query: Record<string, unknown>): string {
    const parts: string[] = [];
    const bracket = (prefix: string, value: unknown): void => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && prefix.split('[').length < 18) {
        for (const [key, inner] of Object.entries(value)) bracket(`${prefix}[${key}]`, inner);
      } else if (Array.isArray(value) && value.length < 50 && value.every((item) => typeof item !== 'object' || item === null)) {
        for (const item of value) parts.push(`${encode(`${prefix}[]`)}=${encode(String(item))}`);
      } else parts.push(`${encode(prefix)}=${encode(typeof value === 'string' ? value : JSON.stringify(value) ?? '')}`);
    };
    for (const [key, value] of Object.entries(query)) {
      if (typeof value === 'string') parts.push(`${encode(key)}=${encode(value)}`);
      else if (this.chance(0.5)) bracket(key, value);
      else parts.push(`${encode(key)}=${encode(JSON.stringify(value) ?? '')}`);
    }
    if (this.chance(0.05)) parts.push(this.pick(['%', '%zz', 'filter[', 'filter]=1', '&&&', 'a[b][c]=%ff', 'fields=%00', '=1', 'filter[title][_eq', 'filter=%7B']));
    return parts.join('&').slice(0, 7000);
  }
  /** An item payload: known and hostile keys with any values. */
  payload(): Record<string, unknown> {
    const payload: Record<string, unknown> = {};
    for (let i = 0; i <= this.int(4); i++) {
      const key = this.pick(KEYS);
      // JSON.parse makes `__proto__` an own key, as a JSON body would.
      Object.defineProperty(payload, key, { value: this.chance(0.1) ? this.nested(this.pick([10, 300])) : this.value(), enumerable: true, configurable: true, writable: true });
    }
    return payload;
  }
}

