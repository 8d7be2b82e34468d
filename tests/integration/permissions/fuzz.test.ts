import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeakFixture, leakedMarkers, type LeakFixture } from './leak-fixture.ts';
import { random } from '../../../bench/data.ts';

/**
 * Generated queries (fields, filter, sort, search, deep, aggregate, groupBy, alias, meta, paging) sent by
 * restricted callers. Whatever the input, the answer is never a 500 and never shows a value planted in a
 * row or field the caller may not read. The generator is seeded: a failure names its seed and index, and
 * FUZZ_SEED=<seed> reruns the same inputs.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);


interface Vocabulary {
  collection: string;
  allowed: string[];
  forbidden: string[];
  relations: string[];
}

const ODD_FIELDS = ['', '.', '..', '*', '*.*', '*.*.*.*', 'id,id', 'count(comments)', 'year(title)', 'count(secret_note)', 'max(rating)', 'x'.repeat(300), 'author.', '.id', 'item:block_text', 'ID', 'Title', ' title', 'title ', '$CURRENT_USER'];

const VOCABULARY: Record<string, Vocabulary> = {
  articles: {
    collection: 'articles',
    allowed: ['id', 'title', 'status', 'rating', 'owner', 'author', 'author.name', 'author.id', 'author.articles.title', 'comments.body', 'comments.id', 'comments.article.title', 'tags.tags_id', 'tags.id', 'blocks.collection', 'blocks.item', 'blocks.item:block_text.text', 'count(comments)'],
    forbidden: ['secret_note', 'author.email', 'author.visible', 'comments.approved', 'tags.tags_id.label', 'tags.tags_id.id', 'blocks.item:block_quote.quote', 'nope', 'author.nope', 'comments.article.secret_note', 'author.articles.secret_note'],
    relations: ['author', 'comments', 'tags', 'blocks', 'tags.tags_id', 'author.articles', 'blocks.item:block_text', 'blocks.item:block_quote', 'secret_note', 'nope'],
  },
  authors: {
    collection: 'authors',
    allowed: ['id', 'name', 'articles', 'articles.title', 'articles.id', 'articles.author.name', 'articles.comments.body'],
    forbidden: ['email', 'visible', 'articles.secret_note', 'articles.comments.approved'],
    relations: ['articles', 'articles.comments', 'email'],
  },
  public: {
    collection: 'articles',
    allowed: ['id', 'title'],
    forbidden: ['status', 'rating', 'secret_note', 'author', 'author.name', 'comments.body', 'tags.tags_id', 'blocks.item:block_text.text', 'count(comments)'],
    relations: ['author', 'comments', 'tags', 'title'],
  },
  comments: {
    collection: 'comments',
    allowed: ['id', 'body', 'article', 'article.title', 'article.author.name'],
    forbidden: ['approved', 'article.secret_note', 'article.author.email'],
    relations: ['article', 'article.author', 'approved'],
  },
};

const OPERATORS = ['_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_in', '_nin', '_null', '_nnull', '_empty', '_nempty', '_contains', '_ncontains', '_icontains', '_starts_with', '_istarts_with', '_nstarts_with', '_ends_with', '_iends_with', '_nends_with', '_between', '_nbetween', '_regex', '_some', '_none', '_foo', 'eq', '_and', '_or', ''];
const VALUES: unknown[] = [
  'MARK',
  'MARK_SECRET',
  1,
  -1,
  0,
  2.5,
  1e308,
  '1e309',
  'abc',
  '',
  ' ',
  null,
  true,
  false,
  'true',
  [],
  [1, 2],
  ['a', null],
  {},
  { _eq: 1 },
  '$CURRENT_USER',
  '$CURRENT_USER.email',
  '$CURRENT_ROLE.name',
  '$NOW',
  '$NOW(-1 day)',
  '$NOW(+bogus)',
  '%',
  '_',
  '\\',
  "'",
  '"',
  '(',
  '[[:alpha:]',
  '.*',
  'published',
  'draft',
  '2024-01-01',
  '2024-13-45',
  '9'.repeat(40),
  'z'.repeat(5000),
  '\u0000',
  'nul\u0000byte',
  '\ud800',
  '😀',
  '11111111-1111-4111-8111-111111111111',
];

const SAFE_OPERATORS = ['_eq', '_neq', '_null', '_nnull', '_in', '_nin', '_contains', '_starts_with'];
const SAFE_VALUES: unknown[] = ['Pub', 'Ada', 'Nice', 'published', 'MARK', '1', 1, 3];

class Generator {
  readonly #next: () => number;
  /** Strict queries use readable fields and plausible operators, so many of them succeed. */
  strict = false;
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
  field(v: Vocabulary): string {
    const r = this.#next();
    if (this.strict && r < 0.9) return this.pick(v.allowed);
    if (r < 0.55) return this.pick(v.allowed);
    if (r < 0.85) return this.pick(v.forbidden);
    return this.pick(ODD_FIELDS);
  }
  value(): unknown {
    return this.strict && this.chance(0.8) ? this.pick(SAFE_VALUES) : this.pick(VALUES);
  }
  /** A filter object: fields as dot paths turned into nested objects, random operators and values, nesting. */
  filter(v: Vocabulary, depth = 0): unknown {
    if (depth < 2 && this.chance(0.25)) {
      const list = Array.from({ length: this.int(3) + (this.chance(0.1) ? 0 : 1) }, () => this.filter(v, depth + 1));
      return { [this.chance(0.5) ? '_and' : '_or']: this.chance(0.05) ? this.value() : list };
    }
    if (this.chance(0.03)) return this.value();
    const path = this.field(v).split('.');
    const operator = this.strict && this.chance(0.8) ? this.pick(SAFE_OPERATORS) : this.pick(OPERATORS);
    let condition: unknown;
    if (operator === '_some' || operator === '_none') condition = { [operator]: this.chance(0.5) ? this.filter(v, depth + 1) : { [this.field(v)]: { _eq: this.value() } } };
    else condition = this.chance(0.05) ? this.value() : { [operator]: this.value() };
    for (const segment of path.reverse()) condition = { [segment]: condition };
    return condition;
  }
  fields(v: Vocabulary): string {
    return Array.from({ length: this.int(4) + 1 }, () => this.field(v)).join(',');
  }
  sort(v: Vocabulary): string {
    return Array.from({ length: this.int(3) + 1 }, () => `${this.chance(0.4) ? '-' : ''}${this.field(v)}`).join(',');
  }
  deep(v: Vocabulary, depth = 0): unknown {
    const options: Record<string, unknown> = {};
    if (this.chance(0.6)) options._filter = this.filter(v, 1);
    if (this.chance(0.3)) options._sort = this.chance(0.8) ? [this.sort(v)] : this.value();
    if (this.chance(0.3)) options._limit = this.pick([1, -1, 0, 'x', 1e12, -5, null]);
    if (this.chance(0.2)) options._offset = this.pick([1, -1, 'x', 3]);
    if (this.chance(0.2)) options._search = this.pick(['Nice', 'MARK', '%', "'", '']);
    if (this.chance(0.1)) options[this.pick(['_foo', 'bogus', '_page'])] = this.value();
    if (depth < 2 && this.chance(0.25)) options[this.pick(v.relations)] = this.deep(v, depth + 1);
    return { [this.pick(v.relations)]: options };
  }
  aggregate(v: Vocabulary): Record<string, string> {
    const functions = ['count', 'countDistinct', 'countAll', 'sum', 'sumDistinct', 'avg', 'avgDistinct', 'min', 'max', 'median', '_sum', 'COUNT'];
    const result: Record<string, string> = {};
    for (let index = 0; index <= this.int(2); index++) result[this.pick(functions)] = this.chance(0.2) ? '*' : this.field(v);
    return result;
  }
  /** A whole query as URL parameters (objects JSON-encoded). */
  query(v: Vocabulary): Record<string, unknown> {
    const query: Record<string, unknown> = {};
    this.strict = this.chance(0.5);
    if (this.chance(0.6)) query.fields = this.fields(v);
    if (this.chance(0.6)) query.filter = this.filter(v);
    if (this.chance(0.3)) query.sort = this.sort(v);
    if (this.chance(0.2)) query.search = this.pick(['Pub', 'MARK', 'Ada', '4', '1', '%', '_', "'", '', 'published', 'draft', '\u0000']);
    if (this.chance(0.25)) query.deep = this.deep(v);
    if (this.chance(0.2)) {
      query.aggregate = this.aggregate(v);
      if (this.chance(0.5)) query.groupBy = Array.from({ length: this.int(2) + 1 }, () => this.field(v)).join(',');
    }
    if (this.chance(0.1)) query.alias = { [this.pick(['a', 'title', 'x y', '_x', '1'])]: this.field(v) };
    if (this.chance(0.2)) query.meta = this.pick(['*', 'total_count', 'filter_count', 'bogus']);
    if (this.chance(0.15)) query.limit = this.pick([1, -1, 0, 'x', -2, 1e9]);
    if (this.chance(0.1)) query.offset = this.pick([1, -1, 'x', 2]);
    if (this.chance(0.1)) query.page = this.pick([1, 0, -1, 'x', 2]);
    return query;
  }
}

function toQueryString(query: Record<string, unknown>): string {
  return Object.entries(query)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('&');
}

const KNOWN_CODES = new Set(['FORBIDDEN', 'INVALID_QUERY', 'INVALID_PAYLOAD', 'ROUTE_NOT_FOUND']);

let f: LeakFixture;
beforeAll(async () => {
  f = await createLeakFixture();
});
afterAll(() => f?.t.close());

describe(`fuzzed reads by restricted callers (seed ${SEED})`, () => {
  const runs: Array<{ who: 'editor' | 'public' | 'app'; collection: string; count: number; seedOffset: number }> = [
    { who: 'editor', collection: 'articles', count: 300, seedOffset: 0 },
    { who: 'editor', collection: 'authors', count: 60, seedOffset: 1 },
    { who: 'editor', collection: 'comments', count: 60, seedOffset: 2 },
    { who: 'public', collection: 'public', count: 80, seedOffset: 3 },
  ];

  for (const { who, collection, count, seedOffset } of runs) {
    it(`${who} on ${collection}: ${count} generated queries, no 500, nothing hidden revealed`, async () => {
      const generate = new Generator(SEED + seedOffset);
      const statuses: Record<number, number> = {};
      for (let index = 0; index < count; index++) {
        const query = generate.query(VOCABULARY[collection]!);
        const path = `/items/${VOCABULARY[collection]!.collection}?${toQueryString(query)}`;
        const response = await f.t.request.get(path).set(f.as(who === 'public' ? null : f.tokens[who]));
        const context = `seed ${SEED + seedOffset} #${index}: GET ${decodeURIComponent(path)} → ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`;
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        expect(response.status, context).toBeLessThan(500);
        expect(leakedMarkers(response.body), context).toEqual([]);
        if (response.status === 200) {
          expect(Array.isArray(response.body.data), context).toBe(true);
          // Rows the caller may not see never come back, whatever the query selected.
          if (VOCABULARY[collection]!.collection === 'articles') {
            const visible = who === 'public' ? [1, 2] : [1, 2, 3, 6];
            for (const item of response.body.data) if (typeof item.id === 'number') expect(visible, context).toContain(item.id);
          }
        } else {
          expect([400, 403], context).toContain(response.status);
          expect(KNOWN_CODES.has(response.body.errors?.[0]?.extensions?.code), context).toBe(true);
        }
      }
      // The generator must exercise both outcomes, or it tests nothing.
      expect(statuses[200] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(count / 10);
      expect((statuses[400] ?? 0) + (statuses[403] ?? 0), JSON.stringify(statuses)).toBeGreaterThan(count / 10);
    });
  }

  it('the same seed generates the same inputs', () => {
    const a = new Generator(SEED);
    const b = new Generator(SEED);
    for (let index = 0; index < 20; index++) expect(a.query(VOCABULARY.articles!)).toEqual(b.query(VOCABULARY.articles!));
  });

  it('a caller with only the app defaults is refused every generated article query', async () => {
    const generate = new Generator(SEED + 4);
    for (let index = 0; index < 40; index++) {
      const path = `/items/articles?${toQueryString(generate.query(VOCABULARY.articles!))}`;
      const response = await f.t.request.get(path).set(f.as(f.tokens.app));
      expect([400, 403], `#${index}: ${decodeURIComponent(path)} → ${response.status}`).toContain(response.status);
      expect(leakedMarkers(response.body)).toEqual([]);
    }
  });
});
