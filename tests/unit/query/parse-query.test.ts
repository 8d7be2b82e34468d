import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../../server/errors.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';

function failure(input: string, options = {}): InvalidQueryError {
  try {
    parseQuery(input, options);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidQueryError);
    return error as InvalidQueryError;
  }
  throw new Error(`parseQuery accepted ${input}`);
}

describe('parseQuery', () => {
  it('reads a filter as JSON and in bracket syntax alike', () => {
    const json = parseQuery(`filter=${encodeURIComponent('{"title":{"_eq":"x"},"_or":[{"rating":{"_gt":"3"}}]}')}`);
    const brackets = parseQuery('filter[title][_eq]=x&filter[_or][0][rating][_gt]=3');
    expect(json.filter).toEqual({ title: { _eq: 'x' }, _or: [{ rating: { _gt: '3' } }] });
    expect({ ...brackets.filter }).toEqual(json.filter);
  });

  it('keeps bracket lists and JSON values as given', () => {
    expect(parseQuery('filter[id][_in][]=1&filter[id][_in][]=2').filter).toEqual({ id: { _in: ['1', '2'] } });
    expect(parseQuery('filter[id][_in]=1,2').filter).toEqual({ id: { _in: '1,2' } });
    expect(parseQuery(`filter=${encodeURIComponent('{"a":{"_null":true,"_in":[1,null]}}')}`).filter).toEqual({ a: { _null: true, _in: [1, null] } });
  });

  it('reads fields and sort as comma lists, repeated parameters or JSON arrays', () => {
    expect(parseQuery('fields=id,author.name, title').fields).toEqual(['id', 'author.name', 'title']);
    expect(parseQuery('fields[]=id&fields[]=comments.*').fields).toEqual(['id', 'comments.*']);
    expect(parseQuery('fields=a&fields=b,c').fields).toEqual(['a', 'b', 'c']);
    expect(parseQuery(`fields=${encodeURIComponent('["id","year(date)"]')}`).fields).toEqual(['id', 'year(date)']);
    expect(parseQuery('sort=-date,title').sort).toEqual(['-date', 'title']);
  });

  it('leaves a missing limit to the read, keeps -1, and caps -1 at maxLimit', () => {
    expect(parseQuery('')).toEqual({});
    expect(parseQuery('limit=-1').limit).toBe(-1);
    expect(parseQuery('limit=-1', { maxLimit: 500 }).limit).toBe(500);
    expect(parseQuery('limit=0&offset=10&page=3').limit).toBe(0);
    expect(parseQuery('?limit=5&offset=10&page=3')).toMatchObject({ limit: 5, offset: 10, page: 3 });
  });

  it('names a bad limit, offset or page', () => {
    expect(failure('limit=abc').message).toMatch(/^limit must be an integer/);
    expect(failure('limit=-2').message).toMatch(/^limit/);
    expect(failure('limit=1000', { maxLimit: 500 }).message).toBe('limit 1000 exceeds the maximum of 500.');
    expect(failure('offset=-1').message).toMatch(/^offset/);
    expect(failure('page=0').message).toMatch(/^page/);
  });

  it('reads search, groupBy, alias and meta', () => {
    const query = parseQuery('search=hello&groupBy=year(date),author&alias[headline]=title&meta=total_count');
    expect(query).toMatchObject({ search: 'hello', groupBy: ['year(date)', 'author'], alias: { headline: 'title' }, meta: ['total_count'] });
    expect(parseQuery('meta=*').meta).toEqual(['total_count', 'filter_count']);
    expect(failure('meta=everything').message).toMatch(/Unknown meta "everything"/);
    expect(failure('search=a&search=b').message).toBe('search must be given once, as text.');
  });

  it('reads aggregates in bracket and JSON syntax', () => {
    expect(parseQuery('aggregate[count]=*&aggregate[sum]=price,rating').aggregate).toEqual({ count: ['*'], sum: ['price', 'rating'] });
    expect(parseQuery(`aggregate=${encodeURIComponent('{"avg":["price"]}')}`).aggregate).toEqual({ avg: ['price'] });
    expect(parseQuery('aggregate[countAll]=').aggregate).toEqual({ countAll: [] });
    expect(failure('aggregate[median]=price').message).toMatch(/Unknown aggregate function "median"/);
    expect(failure('aggregate[sum]=').message).toMatch(/aggregate.sum needs a field/);
  });

  it('reads nested deep options in bracket and JSON syntax', () => {
    const brackets = parseQuery(
      'deep[comments][_filter][approved][_eq]=true&deep[comments][_sort]=-id&deep[comments][_limit]=2&deep[comments][_offset]=1' +
        '&deep[comments][_search]=x&deep[tags][tags_id][_filter][name][_eq]=news&deep[tags][_page]=2',
    );
    expect(brackets.deep).toEqual({
      comments: { filter: { approved: { _eq: 'true' } }, sort: ['-id'], limit: 2, offset: 1, search: 'x' },
      tags: { page: 2, deep: { tags_id: { filter: { name: { _eq: 'news' } } } } },
    });
    const json = parseQuery(`deep=${encodeURIComponent('{"comments":{"_limit":-1}}')}`, { maxLimit: 50 });
    expect(json.deep).toEqual({ comments: { limit: 50 } });
  });

  it('names malformed deep options', () => {
    expect(failure('deep[comments][_max]=2').message).toMatch(/Unknown deep option "_max" in deep.comments/);
    expect(failure('deep[_limit]=2').message).toMatch(/deep: "_limit" must be inside a relation/);
    expect(failure('deep[comments][_limit]=x').message).toMatch(/^deep.comments._limit must be an integer/);
    expect(failure('deep[comments]=3').message).toMatch(/^deep.comments must be an object/);
  });

  it('names a malformed filter', () => {
    expect(failure('filter={"title":').message).toMatch(/^filter is not valid JSON/);
    expect(failure('filter=[1]').message).toMatch(/^filter must be an object/);
    expect(failure('filter={"_and":{"a":1}}').message).toBe('filter._and must be a list of filters.');
    expect(failure('filter={"title":"x"}').message).toMatch(/^filter.title must be an object of operators/);
    expect(failure('filter={"a":{"_in":[{"b":1}]}}').message).toBe('filter.a._in must be a value or a list of values.');
    expect(failure('filter={"_eq":1}').message).toMatch(/^filter._eq: "_eq" is not a logical operator/);
    expect(failure(`${'filter'}${'[a]'.repeat(25)}=1`).message).toMatch(/too deep/);
    const nested = `${'{"_and":['.repeat(5000)}{}${']}'.repeat(5000)}`;
    expect(failure(`filter=${encodeURIComponent(nested)}`).message).toBe('filter nests deeper than 64 levels.');
  });

  it('ignores parameters it does not own and accepts a parsed object', () => {
    expect(parseQuery('access_token=abc&export=csv&fields=id')).toEqual({ fields: ['id'] });
    expect(parseQuery({ fields: 'id,title', limit: '5', filter: { id: { _eq: '1' } } })).toEqual({ fields: ['id', 'title'], limit: 5, filter: { id: { _eq: '1' } } });
  });

  it('does not let input reach object prototypes', () => {
    expect(failure(`filter=${encodeURIComponent('{"__proto__":{"polluted":{"_eq":1}}}')}`).message).toMatch(/^filter.__proto__/);
    // Refused, not silently dropped (a dropped filter would widen the read).
    expect(failure('alias[__proto__][polluted]=x').extensions.field).toBe('alias');
    expect(failure('filter[__proto__][_eq]=1').extensions.field).toBe('filter');
    expect(failure('deep%5B__proto__%5D%5B_limit%5D=1').extensions.field).toBe('deep');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps keys named like Object.prototype members, so they reach validation instead of vanishing', () => {
    expect(parseQuery('filter[constructor][_eq]=1').filter).toEqual({ constructor: { _eq: '1' } });
    expect(failure('filter[title][toString]=1').message).toMatch(/^filter.title.toString must be an object/);
    expect(parseQuery('deep[hasOwnProperty][_limit]=1').deep).toEqual({ hasOwnProperty: { limit: 1 } });
  });

  it('refuses a JSON body filter nested deeper than 64 levels, as it does JSON text', () => {
    let filter: object = { n: { _eq: 1 } };
    for (let i = 0; i < 10_000; i++) filter = { _and: [filter] };
    expect(() => parseQuery({ filter })).toThrow(/filter nests deeper than 64 levels/);
  });
});
