import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import type { ReadResult } from '../../../server/query/types.ts';
import { openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

function read(query: string): Promise<ReadResult> {
  return readByQuery(fixture.db, fixture.schema, 'articles', parseQuery(query), { accountability: null });
}

async function data(query: string): Promise<unknown[]> {
  return (await read(query)).data;
}

describe('aggregate', () => {
  it.each([
    ['aggregate[count]=*', [{ count: 5 }]],
    ['aggregate[count]=id,rating', [{ count: { id: 5, rating: 4 } }]],
    ['aggregate[countDistinct]=status,author', [{ countDistinct: { status: 3, author: 3 } }]],
    ['aggregate[countAll]', [{ countAll: 5 }]],
    ['aggregate[sum]=rating', [{ sum: { rating: 13 } }]],
    ['aggregate[sum]=price,views', [{ sum: { price: '38.74', views: '9007199254741098' } }]],
    ['aggregate[sumDistinct]=rating', [{ sumDistinct: { rating: 13 } }]],
    ['aggregate[avg]=rating,score', [{ avg: { rating: 3.25, score: 2.0625 } }]],
    ['aggregate[avgDistinct]=rating', [{ avgDistinct: { rating: 3.25 } }]],
    ['aggregate[min]=published_on,title&aggregate[max]=price,local_at', [
      { min: { published_on: '2023-06-01', title: '100% off_sale' }, max: { price: '20.00', local_at: '2024-03-10T23:15:00' } },
    ]],
    ['aggregate[count]=*&filter[status][_eq]=published', [{ count: 3 }]],
    ['aggregate[count]=*&search=hello', [{ count: 1 }]],
    ['aggregate[count]=*&filter[comments][_some][approved][_eq]=false', [{ count: 1 }]],
  ])('%s returns %j', async (query, expected) => {
    expect(await data(query)).toEqual(expected);
  });

  it('groups by fields and by functions, keyed like Directus', async () => {
    expect(await data('aggregate[count]=id&groupBy=author')).toEqual([
      { author: 1, count: { id: 2 } },
      { author: 2, count: { id: 1 } },
      { author: 3, count: { id: 1 } },
      { author: null, count: { id: 1 } },
    ]);
    expect(await data('aggregate[count]=*&aggregate[sum]=rating&groupBy=year(published_on)')).toEqual([
      { published_on_year: 2023, count: 1, sum: { rating: 3 } },
      { published_on_year: 2024, count: 3, sum: { rating: 9 } },
      { published_on_year: null, count: 1, sum: { rating: 1 } },
    ]);
    expect(await data('aggregate[max]=rating&groupBy=status,month(published_on)&filter[status][_neq]=archived&sort=-status,month(published_on)')).toEqual([
      { status: 'published', published_on_month: 1, max: { rating: 5 } },
      { status: 'published', published_on_month: 6, max: { rating: 3 } },
      { status: 'draft', published_on_month: 3, max: { rating: null } },
    ]);
  });

  it('sorts groups by an aggregate (Directus `fn.field`, or `fn` for *) and by groupBy fields', async () => {
    expect(await data('aggregate[count]=id&groupBy[]=author&sort=-count.id,author')).toEqual([
      { author: 1, count: { id: 2 } },
      { author: 2, count: { id: 1 } },
      { author: 3, count: { id: 1 } },
      { author: null, count: { id: 1 } },
    ]);
    expect((await data('aggregate[count]=id&groupBy[]=author&sort=count.id,-author')).map((row) => (row as { author: unknown }).author)).toEqual([null, 3, 2, 1]);
    expect(await data('aggregate[countAll]&groupBy=status&sort=-countAll,status')).toEqual([
      { status: 'published', countAll: 3 },
      { status: 'archived', countAll: 1 },
      { status: 'draft', countAll: 1 },
    ]);
    expect((await data('aggregate[count]=*&groupBy=status&sort=-count,-status')).map((row) => (row as { status: unknown }).status)).toEqual(['published', 'draft', 'archived']);
    expect(await data('aggregate[count]=*&sort=-count')).toEqual([{ count: 5 }]);
  });

  it('sorts exact sums as numbers, though they are returned as strings', async () => {
    // views by author: 1 → 9007199254740993, 2 → 5, 3 → 100, none → 0; as text, "100" would come before "5".
    expect(await data('aggregate[sum]=views&groupBy=author&sort=sum.views')).toEqual([
      { author: null, sum: { views: '0' } },
      { author: 2, sum: { views: '5' } },
      { author: 3, sum: { views: '100' } },
      { author: 1, sum: { views: '9007199254740993' } },
    ]);
  });

  it('pages groups, groups without aggregates, and counts in meta', async () => {
    expect(await data('groupBy=status&limit=2&offset=1')).toEqual([{ status: 'draft' }, { status: 'published' }]);
    expect(await read('aggregate[count]=*&groupBy=status&filter[rating][_gte]=3&meta=*')).toEqual({
      data: [{ status: 'published', count: 3 }],
      meta: { total_count: 5, filter_count: 3 },
    });
  });

  it('runs through readByQuery in one statement', async () => {
    fixture.statements.length = 0;
    const result = await readByQuery(fixture.db, fixture.schema, 'articles', parseQuery('aggregate[count]=*&groupBy=author&meta=*'), { accountability: null });
    expect(result.data).toHaveLength(4);
    expect(fixture.statements).toHaveLength(1);
  });

  it('refuses aggregates that do not fit the field', async () => {
    await expect(read('aggregate[sum]=title')).rejects.toThrow('aggregate sum needs a numeric field; "title" is string.');
    await expect(read('aggregate[min]=meta')).rejects.toBeInstanceOf(InvalidQueryError);
    await expect(read('aggregate[count]=*,id')).rejects.toThrow('aggregate count takes either * or fields, not both.');
    await expect(read('aggregate[count]=*&sort=title')).rejects.toThrow(/sort by a groupBy field or an aggregate of the query/);
    await expect(read('aggregate[count]=*&groupBy=status&sort=title')).rejects.toThrow(/sort by a groupBy field or an aggregate of the query/);
    await expect(read('aggregate[count]=id&groupBy=status&sort=sum.id')).rejects.toMatchObject({ status: 400, extensions: { field: 'sort' } });
    await expect(read('aggregate[count]=id&groupBy=status&sort=count.rating')).rejects.toBeInstanceOf(InvalidQueryError);
    await expect(read('aggregate[count]=*&deep[comments][_limit]=1')).rejects.toThrow(/deep and alias cannot be combined/);
    await expect(read('aggregate[max]=secret')).rejects.toBeInstanceOf(InvalidQueryError); // concealed: a 400, as in Directus (issue 31)
  });
});
