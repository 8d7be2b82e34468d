import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Accountability } from '../../../server/auth/accountability.ts';
import { ForbiddenError } from '../../../server/errors.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import type { Filter, ReadPolicy, ReadResult } from '../../../server/query/types.ts';
import { FIXTURE_IDS, openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

const ITEM_FILTERS: Record<string, Filter> = {
  articles: { status: { _eq: 'published' } },
  authors: { active: { _eq: true } },
  comments: { approved: { _eq: true } },
  tags: { name: { _nstarts_with: 'secret' } },
  block_text: { text: { _ncontains: 'SECRET' } },
};
const FIELDS: Record<string, ReadonlySet<string>> = {
  articles: new Set(['id', 'title', 'body', 'status', 'rating', 'author', 'comments', 'tags', 'blocks', 'published_on', 'secret']),
  authors: new Set(['id', 'name', 'articles']),
  comments: new Set(['id', 'body', 'article']),
};

/** Published articles, active authors, approved comments, non-secret tags and blocks; some fields hidden. */
const policy: ReadPolicy = {
  itemFilter: (collection) => ITEM_FILTERS[collection] ?? null,
  allowedFields: (collection) => FIELDS[collection] ?? '*',
};

/** Strings that exist only in rows or fields the policy hides. */
const HIDDEN = ['SECRET', 'secret-tag', 'Hidden Hal', 'Draft idea', 'off_sale', '10.50', '9007199254740993', 'ada@example.com'];

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

function read(query: string, collection = 'articles', custom: ReadPolicy = policy): Promise<ReadResult> {
  return readByQuery(fixture.db, fixture.schema, collection, parseQuery(query), { accountability: null, policy: custom });
}

function expectNothingHidden(result: unknown): void {
  const text = JSON.stringify(result);
  for (const hidden of HIDDEN) expect(text).not.toContain(hidden);
}

describe('a restrictive read policy', () => {
  it('hides rows and fields at the root, with counts to match', async () => {
    const result = await read('fields=*&meta=*');
    expect(result.data.map((item) => item.id)).toEqual([1, 2, 4]);
    expect(Object.keys(result.data[0] ?? {})).toEqual(['id', 'title', 'body', 'status', 'rating', 'published_on', 'secret', 'author', 'comments', 'tags', 'blocks']);
    expect(result.meta).toEqual({ total_count: 3, filter_count: 3 });
    expectNothingHidden(result);
  });

  it('hides rows at every relational level', async () => {
    const result = await read(
      'fields=id,author.name,author.articles.title,comments.body,count(comments),tags.tags_id.name,blocks.item:block_text.text,blocks.collection',
    );
    expect(result.data).toEqual([
      {
        id: 1,
        author: { name: 'Ada Lovelace', articles: [{ title: 'Hello World' }] },
        comments: [{ body: 'Great post' }, { body: 'Thanks' }],
        comments_count: 2,
        tags: [{ tags_id: { name: 'news' } }, { tags_id: { name: 'tech' } }, { tags_id: null }],
        blocks: [
          { item: { text: 'Intro text' }, collection: 'block_text' },
          { item: '1', collection: 'block_image' },
          { item: null, collection: 'block_text' },
        ],
      },
      {
        id: 2,
        author: { name: 'Brian Kernighan', articles: [{ title: 'Second Post' }] },
        comments: [{ body: 'Nice' }],
        comments_count: 1,
        tags: [{ tags_id: { name: 'tech' } }],
        blocks: [{ item: { text: 'Intro text' }, collection: 'block_text' }],
      },
      { id: 4, author: null, comments: [], comments_count: 0, tags: [{ tags_id: null }], blocks: [] },
    ]);
  });

  it('leaks nothing through every wildcard level', async () => {
    const result = await read('fields=*.*.*&meta=*&limit=-1');
    expect(result.data).toHaveLength(3);
    expectNothingHidden(result);
    expect(JSON.stringify(result)).toContain('"secret":"**********"');
  });

  it('applies the rules of related collections inside relational filters, _some and _none', async () => {
    const ids = async (query: string) => (await read(`fields=id&${query}`)).data.map((item) => item.id);
    expect(await ids('filter[comments][body][_contains]=SECRET')).toEqual([]);
    expect(await ids('filter[comments][_some][body][_contains]=SECRET')).toEqual([]);
    expect(await ids('filter[comments][_none][body][_contains]=SECRET')).toEqual([1, 2, 4]);
    expect(await ids('filter[author][name][_eq]=Hidden Hal')).toEqual([]);
    expect(await ids('filter[author][_null]=true')).toEqual([]);
    expect(await ids('filter[author][name][_null]=true')).toEqual([4]);
    expect(await ids('filter[tags][tags_id][name][_eq]=secret-tag')).toEqual([]);
    expect(await ids('filter[blocks][item:block_text][text][_contains]=SECRET')).toEqual([]);
    expect(await ids('filter[count(comments)][_gte]=2')).toEqual([1]);
    expect(await ids('sort=-author.name')).toEqual([4, 2, 1]);
  });

  it('applies the rules in search and aggregates', async () => {
    expect((await read('fields=id&search=SECRET')).data).toEqual([]);
    expect((await read('fields=id&search=20')).data).toEqual([]);
    expect((await read('aggregate[count]=*')).data).toEqual([{ count: 3 }]);
    expect((await read('aggregate[count]=id&groupBy=author')).data).toEqual([
      { author: 1, count: { id: 1 } },
      { author: 2, count: { id: 1 } },
      { author: 3, count: { id: 1 } },
    ]);
    expect((await read('aggregate[sum]=rating&filter[author][name][_contains]=a')).data).toEqual([{ sum: { rating: 8 } }]);
  });

  it.each([
    'fields=price',
    'fields=author.active',
    'fields=comments.approved',
    'filter[price][_gt]=1',
    'filter[author][active][_eq]=true',
    'filter[comments][_some][approved][_eq]=false',
    'sort=price',
    'sort=author.born',
    'aggregate[sum]=price',
    'aggregate[count]=*&groupBy=views',
    'deep[comments][_filter][approved][_eq]=true&fields=comments.id',
    'deep[comments][_sort]=approved',
    'alias[cost]=price&fields=cost',
    'fields=no_such_field',
  ])('refuses %s with 403', async (query) => {
    await expect(read(query)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it.each(['filter[secret][_starts_with]=S', 'filter[secret][_nnull]=true&filter[secret][_eq]=x'])('refuses %s on a readable concealed field with 400 (issue 31)', async (query) => {
    await expect(read(query)).rejects.toMatchObject({ status: 400, extensions: { field: 'secret' } });
  });

  it('lets a readable concealed field be tested with _null / _nnull only', async () => {
    const ids = async (query: string) => (await read(`fields=id&sort=id&${query}`)).data.map((item) => item.id);
    expect(await ids('filter[secret][_nnull]=true')).toEqual([1]);
    expect(await ids('filter[secret][_null]=true')).toEqual([2, 4]);
  });

  it('refuses a collection the caller may read no field of', async () => {
    const closed: ReadPolicy = { itemFilter: () => null, allowedFields: (collection) => (collection === 'authors' ? new Set() : '*') };
    await expect(read('fields=id', 'authors', closed)).rejects.toBeInstanceOf(ForbiddenError);
    expect((await read('fields=id,author.*&filter[id][_eq]=1', 'articles', closed)).data).toEqual([{ id: 1, author: {} }]);
  });

  it('lets permission filters use relations and $CURRENT_USER, never checked against the caller’s fields', async () => {
    const own: ReadPolicy = {
      itemFilter: (collection) => (collection === 'articles' ? { author: { owner: { _eq: '$CURRENT_USER' } } } : null),
      allowedFields: (collection) => (collection === 'articles' ? new Set(['id', 'title']) : '*'),
    };
    const ada: Accountability = { user: FIXTURE_IDS.ada, role: null, admin: false, app: true, ip: null, userAgent: null, origin: null, session: null, share: null };
    const mine = await readByQuery(fixture.db, fixture.schema, 'articles', parseQuery('fields=id,title&meta=*'), { accountability: ada, policy: own });
    expect(mine).toEqual({ data: [{ id: 1, title: 'Hello World' }, { id: 3, title: 'Draft idea' }], meta: { total_count: 2, filter_count: 2 } });
    const publicResult = await readByQuery(fixture.db, fixture.schema, 'articles', parseQuery('fields=id&meta=*'), { accountability: null, policy: own });
    expect(publicResult).toEqual({ data: [], meta: { total_count: 0, filter_count: 0 } });
  });
});
