import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import type { ReadOptions, ReadResult } from '../../../server/query/types.ts';
import { FIXTURE_IDS, openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

function read(query: string, options: Partial<ReadOptions> = {}): Promise<ReadResult> {
  return readByQuery(fixture.db, fixture.schema, 'articles', parseQuery(query), { accountability: null, ...options });
}

async function ids(query: string, options: Partial<ReadOptions> = {}): Promise<unknown[]> {
  return (await read(`fields=id&${query}`, options)).data.map((item) => item.id);
}

describe('sort', () => {
  it.each([
    ['', [1, 2, 3, 4, 5]],
    ['sort=title', [5, 3, 1, 4, 2]],
    ['sort=-id', [5, 4, 3, 2, 1]],
    ['sort=-rating', [3, 1, 4, 2, 5]],
    ['sort=status,-rating', [5, 3, 1, 4, 2]],
    ['sort=author.name', [1, 3, 2, 4, 5]],
    ['sort=-author.name', [5, 4, 2, 1, 3]],
    ['sort=author.name,-id', [3, 1, 2, 4, 5]],
    ['sort=year(published_on),-id', [2, 4, 3, 1, 5]],
    ['sort=-count(comments)', [1, 2, 3, 4, 5]],
    ['sort=author.year(born)', [1, 3, 2, 4, 5]],
  ])('%s orders %j', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('joins a sorted relation once, however often it is used', async () => {
    fixture.statements.length = 0;
    await ids('sort=author.name,-author.born&filter[author][active][_eq]=true');
    expect(fixture.statements[0]?.match(/left join lateral/g)).toHaveLength(1);
  });

  it('refuses sorting by a one-to-many field itself or a concealed field', async () => {
    await expect(ids('sort=comments')).rejects.toBeInstanceOf(InvalidQueryError);
    await expect(ids('sort=secret')).rejects.toBeInstanceOf(InvalidQueryError);
  });
});

describe('search', () => {
  it.each([
    ['hello', [1]],
    ['POST', [2]],
    ['5', [1, 2, 5]],
    ['7.25', [4]],
    ['%', [5]],
    [FIXTURE_IDS.articleUid, [1]],
    ['green', [1]],
    ['nothing matches this', []],
  ])('%j finds %j', async (term, expected) => {
    expect(await ids(`search=${encodeURIComponent(term)}`)).toEqual(expected);
  });

  it('never matches a concealed value', async () => {
    expect(await ids('search=SECRET-ONE')).toEqual([]);
    expect(await ids('search=SECRET')).toEqual([3]);
  });

  it('combines with the filter', async () => {
    expect(await ids('search=body&filter[status][_eq]=published')).toEqual([1, 2, 4]);
  });
});

describe('limit, offset and page', () => {
  it.each([
    ['limit=2', [1, 2]],
    ['limit=2&offset=2', [3, 4]],
    ['limit=2&page=2', [3, 4]],
    ['limit=2&page=3', [5]],
    ['limit=2&page=2&offset=4', [3, 4]],
    ['limit=-1', [1, 2, 3, 4, 5]],
    ['limit=0', []],
    ['offset=4', [5]],
  ])('%s returns %j', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('caps limit -1 and the default at maxLimit, and refuses more', async () => {
    expect(await ids('limit=-1', { maxLimit: 3 })).toEqual([1, 2, 3]);
    expect(await ids('', { maxLimit: 2 })).toEqual([1, 2]);
    await expect(ids('limit=4', { maxLimit: 3 })).rejects.toThrow('limit 4 exceeds the maximum of 3.');
  });
});

describe('meta', () => {
  it('counts all readable items and the filtered ones', async () => {
    const result = await read('fields=id&filter[status][_eq]=published&limit=1&meta=total_count,filter_count');
    expect(result).toEqual({ data: [{ id: 1 }], meta: { total_count: 5, filter_count: 3 } });
  });

  it('counts what the search finds, and returns only the counts asked for', async () => {
    expect((await read('fields=id&search=body&meta=filter_count')).meta).toEqual({ filter_count: 4 });
    expect((await read('fields=id&meta=total_count&filter[id][_eq]=3')).meta).toEqual({ total_count: 5 });
    expect((await read('fields=id')).meta).toBeUndefined();
  });

  it('still counts when the page is empty', async () => {
    expect(await read('fields=id&filter[status][_eq]=draft&page=5&limit=1&meta=*')).toEqual({ data: [], meta: { total_count: 5, filter_count: 1 } });
    expect(await read('fields=id&filter[status][_eq]=nothing&meta=*')).toEqual({ data: [], meta: { total_count: 5, filter_count: 0 } });
  });
});
