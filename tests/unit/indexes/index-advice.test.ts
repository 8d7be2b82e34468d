import { describe, expect, it } from 'vitest';
import { adviseIndexes, indexesFor } from '../../../server/indexes/index-advice.ts';
import { columnIndexName, trigramIndexName } from '../../../server/indexes/index-names.ts';
import type { IndexFacts } from '../../../server/indexes/managed-indexes.ts';
import { p95, QueryShapeStats, shapeOf } from '../../../server/indexes/query-shapes.ts';
import type { ReadPolicy } from '../../../server/query/types.ts';
import { collection, field } from '../../helpers/schema-fixture.ts';

const articles = collection('articles', [
  field('id', 'integer'),
  field('title', 'string'),
  field('body', 'text'),
  field('status', 'string'),
  field('views', 'integer'),
  field('published_on', 'timestamp'),
  field('data', 'json'),
  field('secret', 'string', { concealed: true }),
  field('comments', 'alias'),
]);
const schema = { collections: { articles }, relations: [] };

describe('read shapes', () => {
  it('keep root columns of sort, filter (through _and/_or) and search; drop the key, aliases and relational paths', () => {
    const shape = shapeOf(
      articles,
      {
        sort: ['-published_on', 'author.name', 'comments'],
        filter: { _and: [{ status: { _eq: 'published' } }, { _or: [{ views: { _gt: 5 } }, { title: { _icontains: 'x' } }] }], id: { _in: [1] }, author: { name: { _eq: 'a' } } },
        search: 'lantern',
      },
      undefined,
    );
    expect(shape).toEqual({ collection: 'articles', sort: ['-published_on'], filter: { status: 'equality', title: 'contains', views: 'range' }, search: true });
  });

  it('count the permission rule, and give no shape to reads by key, aggregates and system collections', () => {
    const policy: ReadPolicy = { itemFilter: () => ({ status: { _eq: 'published' } }), allowedFields: () => '*' };
    expect(shapeOf(articles, { sort: ['title'] }, policy)?.filter).toEqual({ status: 'equality' });
    expect(shapeOf(articles, { filter: { id: { _eq: 1 } } }, undefined)).toBeNull();
    expect(shapeOf(articles, { sort: ['title'], aggregate: { count: ['*'] } }, undefined)).toBeNull();
    expect(shapeOf(collection('tessera_users', [field('id', 'uuid'), field('email', 'string')]), { sort: ['email'] }, undefined)).toBeNull();
  });

  it('are kept bounded, least recently seen first out, with a p95 of recent reads', () => {
    const stats = new QueryShapeStats(2);
    const shape = (name: string) => ({ collection: 'articles', sort: [name], filter: {}, search: false });
    for (let index = 1; index <= 20; index++) stats.record(shape('title'), index);
    stats.record(shape('views'), 1);
    stats.record(shape('title'), 100);
    stats.record(shape('status'), 1);
    expect(stats.all().map((entry) => entry.shape.sort[0])).toEqual(['title', 'status']);
    const title = stats.all()[0]!;
    expect(title).toMatchObject({ count: 21, maxMs: 100 });
    expect(p95(title)).toBe(20);
  });
});

describe('advised indexes', () => {
  it('put equality columns before the sort, fall back to one range column, and use trigram for search and contains', () => {
    expect(indexesFor({ collection: 'articles', sort: ['-published_on'], filter: { status: 'equality', views: 'range' }, search: false }, articles)).toEqual([
      { table: 'articles', columns: ['status', 'published_on'], kind: 'btree' },
    ]);
    expect(indexesFor({ collection: 'articles', sort: [], filter: { views: 'range', published_on: 'range' }, search: false }, articles)).toEqual([
      { table: 'articles', columns: ['views'], kind: 'btree' },
    ]);
    // Search covers the searchable text columns, not the concealed one; json is never a btree column.
    expect(indexesFor({ collection: 'articles', sort: ['data'], filter: {}, search: true }, articles).map((spec) => `${spec.kind}:${spec.columns.join()}`)).toEqual([
      'trigram:title',
      'trigram:body',
      'trigram:status',
    ]);
  });

  it('list only slow shapes whose index does not exist yet, slowest first', () => {
    const stats = new QueryShapeStats(10);
    stats.record({ collection: 'articles', sort: ['views'], filter: {}, search: false }, 30);
    stats.record({ collection: 'articles', sort: ['-published_on'], filter: {}, search: false }, 80);
    stats.record({ collection: 'articles', sort: ['title'], filter: {}, search: false }, 5);
    stats.record({ collection: 'articles', sort: [], filter: { body: 'contains' }, search: false }, 60);
    const existing: IndexFacts[] = [
      { name: 'views_and_more', table: 'articles', columns: ['views', 'status'], method: 'btree', unique: false, primary: false, valid: true, expression: false, opclasses: ['int4_ops', 'text_ops'] },
      { name: trigramIndexName('articles', 'body'), table: 'articles', columns: ['body'], method: 'gin', unique: false, primary: false, valid: false, expression: false, opclasses: ['gin_trgm_ops'] },
    ];
    const advice = adviseIndexes(stats.all(), schema, existing, 10);
    expect(advice.map((item) => [item.index.name, item.p95_ms])).toEqual([
      [columnIndexName('articles', 'published_on'), 80],
      // The INVALID trigram index serves nothing: still advised.
      [trigramIndexName('articles', 'body'), 60],
    ]);
    expect(adviseIndexes(stats.all(), schema, existing, 10, 'other')).toEqual([]);
  });

  it('shorten names past 63 bytes with a hash', () => {
    const name = columnIndexName('a'.repeat(40), 'b'.repeat(40));
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
    expect(name).not.toBe(columnIndexName('a'.repeat(40), `${'b'.repeat(39)}c`));
  });
});
