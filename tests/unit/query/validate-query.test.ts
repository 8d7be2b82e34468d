import { describe, expect, it } from 'vitest';
import { ForbiddenError, InvalidQueryError } from '../../../server/errors.ts';
import { compileReadQuery } from '../../../server/query/compile-read.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import type { ReadPolicy } from '../../../server/query/types.ts';
import { validateQuery } from '../../../server/query/validate-query.ts';
import { fixtureSchema } from '../../helpers/schema-fixture.ts';
import { sqlCompiler } from '../../helpers/sql-compiler.ts';

const schema = fixtureSchema();
const compiler = sqlCompiler;

const restricted: ReadPolicy = {
  itemFilter: (collection) => (collection === 'articles' ? { status: { _eq: 'published' } } : null),
  allowedFields: (collection) => (collection === 'articles' ? new Set(['id', 'title', 'author', 'comments', 'secret']) : collection === 'authors' ? new Set(['id']) : '*'),
};

function check(query: string, collection = 'articles', policy?: ReadPolicy): void {
  validateQuery(schema, collection, parseQuery(query), { accountability: null, policy });
}

function rejection(query: string, policy?: ReadPolicy, collection = 'articles'): Error {
  try {
    check(query, collection, policy);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`accepted ${query}`);
}

function invalid(query: string, message: RegExp | string, field?: string): void {
  const error = rejection(query);
  expect(error).toBeInstanceOf(InvalidQueryError);
  expect(error.message).toMatch(message);
  if (field) expect((error as InvalidQueryError).extensions.field).toBe(field);
}

function forbidden(query: string, policy: ReadPolicy | undefined = restricted): void {
  expect(rejection(query, policy)).toBeInstanceOf(ForbiddenError);
}

describe('validateQuery: fields, sort and relations', () => {
  it('accepts every relation kind, wildcards, functions and scoped many-to-any paths', () => {
    check('fields=*.*,author.articles.title,tags.tags_id.name,blocks.item:block_text.text,blocks.item.*,count(comments),year(published_on)');
    check('sort=-author.name,year(published_on),count(comments)&fields=id');
  });

  it('names unknown fields in fields, filter and sort', () => {
    invalid('fields=nope', 'Field "nope" in fields does not exist in collection "articles".', 'nope');
    invalid('fields=author.nope', 'Field "nope" in fields does not exist in collection "authors".');
    // A path through a field the collection lacks is ignored, as Directus does (issue 31), except for
    // callers with restricted fields, to whom an unknown field looks like a forbidden one.
    check('fields=id,nope.id');
    check('fields=author.nope.id');
    invalid(`fields=${encodeURIComponent('nope.x" from vault')}`, /does not exist/);
    forbidden('fields=id,nope.id');
    invalid('filter[nope][_eq]=1', /Field "nope" in filter does not exist/);
    invalid('sort=-nope', /Field "nope" in sort does not exist/);
  });

  it('refuses paths through plain fields, o2m sorts on values without an order, bad scopes and deep chains', () => {
    invalid('fields=title.length', /"title" is not a relational field/);
    invalid('sort=title.length', /"title" is not a relational field/);
    invalid('sort=blocks.item.text', /many-to-any field "item" points to several collections/);
    invalid('sort=author.articles.meta', /Cannot sort by "author.articles.meta": json values through a one-to-many field have no order/);
    invalid('sort=comments', /try count\(comments\)/);
    invalid('fields=blocks.item.nope', /no collection "blocks.item" can point to has that field; name one, e.g. item:block_text.id/);
    check('fields=blocks.item.text');
    invalid('fields=blocks.item:authors.name', /"authors" is not a collection "blocks.item" can point to/);
    invalid('fields=author:authors.name', /not a many-to-any field/);
    invalid(`fields=${Array(6).fill('author.articles').join('.')}.id`, /^Invalid query\. Max relational depth exceeded\.$/);
    invalid(`filter=${encodeURIComponent(`${'{"author":{"articles":'.repeat(6)}{"id":{"_eq":1}}${'}}'.repeat(6)}`)}`, /^Invalid query\. Max relational depth exceeded\.$/);
  });

  it('checks functions against field types', () => {
    invalid('fields=year(title)', 'year() cannot be applied to string field "title".');
    invalid('filter[hour(published_on)][_eq]=1', /hour\(\) cannot be applied to date field/);
    invalid('fields=count(title)', /count\(\) needs a one-to-many, many-to-many or json field/);
    invalid('fields=median(price)', /Unknown function "median"/);
    invalid('groupBy=count(comments)&aggregate[count]=*', /groupBy cannot use count\(\)/);
  });

  it('checks deep, alias and limits', () => {
    invalid('deep[title][_limit]=1', /deep.title must name a relational field/);
    invalid('deep[author][_limit]=1', /deep.author points to one item: only _filter and _search apply/);
    invalid('deep[comments][_filter][nope][_eq]=1&fields=comments.id', /Field "nope" in deep.comments._filter does not exist/);
    invalid('alias[title]=body', /alias "title" must be a new name/);
    invalid('alias[x]=author.name', /must name a field of "articles" \(no dots\)/);
    expect(() => compileReadQuery(schema, 'articles', { limit: 500 }, { accountability: null, maxLimit: 100 })).toThrow('limit 500 exceeds the maximum of 100.');
    expect(() => compileReadQuery(schema, 'articles', { limit: -1, page: 2 }, { accountability: null })).toThrow(/page 2 needs a limit/);
    expect(() => compileReadQuery(schema, 'articles', {}, { accountability: null, maxLimit: 10 })).not.toThrow();
  });

  it('refuses unknown collections and readers without fields as forbidden', () => {
    expect(rejection('fields=id', undefined, 'nothing')).toBeInstanceOf(ForbiddenError);
    const none: ReadPolicy = { itemFilter: () => null, allowedFields: () => new Set() };
    forbidden('fields=id', none);
  });
});

describe('validateQuery: Directus 10 parity', () => {
  it('accepts the negated case-insensitive operators on text, csv and uuid fields', () => {
    check('filter[title][_nicontains]=x&filter[title][_nistarts_with]=x&filter[title][_niends_with]=x');
    check('filter[keywords][_nistarts_with]=red&filter[uid][_niends_with]=1');
    invalid('filter[rating][_niends_with]=1', 'Operator _niends_with cannot be used on integer field "rating".', 'rating');
  });

  it.each(['_intersects', '_nintersects', '_intersects_bbox', '_nintersects_bbox'])('refuses %s as a geometry operator, naming the field', (operator) => {
    invalid(`filter[title][${operator}]=x`, `Operator ${operator} is only for geometry fields; "title" is string.`, 'title');
  });

  it('takes a csv value as a list or as its joined text', () => {
    check('filter={"keywords":{"_eq":["red","green"],"_in":["red,green","c"],"_contains":["d","g"]}}');
    invalid('filter={"keywords":{"_eq":[true]}}', /expected a string or a list of strings/, 'keywords');
  });

  it('sorts through one-to-many and many-to-many paths, checking every field on the way', () => {
    check('sort=comments.body,-tags.tags_id.name,author.articles.rating');
    forbidden('sort=comments.body', { itemFilter: () => null, allowedFields: (collection) => (collection === 'comments' ? new Set(['id']) : '*') });
    forbidden('sort=author.articles.secret', undefined);
  });

  it('sorts aggregates by the aggregates they name', () => {
    check('aggregate[count]=id&aggregate[sum]=price&groupBy=author&sort=-count.id,sum.price,author');
    check('aggregate[count]=*&groupBy=status&sort=-count');
    check('aggregate[countAll]&sort=countAll');
    invalid('aggregate[count]=id&groupBy=author&sort=count.price', /sort by a groupBy field or an aggregate of the query/, 'sort');
  });
});

describe('validateQuery: filter operators and values', () => {
  it('names unknown operators and operators a type does not take', () => {
    invalid('filter[title][_like]=x', 'Unknown filter operator "_like" on field "title".', 'title');
    invalid('filter[rating][_contains]=1', 'Operator _contains cannot be used on integer field "rating".');
    invalid('filter[meta][_eq]=1', /Operator _eq cannot be used on json field "meta"/);
    invalid('filter[comments][_eq]=1', /Operator _eq cannot be used on one-to-many field "comments"/);
    invalid('filter[title][_some][a][_eq]=1', /only one-to-many fields take it/);
    invalid('filter[_xor][0][id][_eq]=1', 'filter._xor: "_xor" is not a logical operator (_and, _or); comparison operators go inside a field.');
    invalid('filter[title][_eq][a]=1', 'filter.title._eq must be a value or a list of values.');
    invalid('filter[title][nested][_eq]=1', /"title" is not a relational field/);
  });

  it('casts values to the field type and names the field when they do not fit', () => {
    invalid('filter[rating][_gt]=abc', 'Invalid value "abc" for field "rating": expected an integer.', 'rating');
    invalid('filter[rating][_in]=1,x', /for field "rating": expected an integer/);
    invalid('filter[published_on][_eq]=2024-02-30', /expected a date/);
    invalid('filter[published_at][_gt]=yesterday', /expected a date and time/);
    invalid('filter[uid][_eq]=123', /expected a UUID/);
    invalid('filter[score][_lt]=high', /expected a number/);
    invalid('filter[views][_eq]=99999999999999999999', /expected an integer/);
    invalid('filter[reminder][_eq]=25:00', /expected a time/);
    invalid('filter[author][active][_eq]=maybe', /expected a boolean/);
    invalid('filter[price][_between]=1', /_between on "price" takes two values/);
    invalid('filter[title][_null]=perhaps', /expected a boolean/);
    invalid('filter[title][_regex]=(', /not a valid regular expression/);
  });

  it('names malformed dynamic variables', () => {
    invalid('filter[published_at][_gt]=$NOW(yesterday)', /Invalid \$NOW\(yesterday\) on field "published_at"/);
    invalid('filter[title][_eq]=$CURRENT_USER.nope', /Unknown field "nope" in \$CURRENT_USER.nope/);
    forbidden('filter[title][_eq]=$CURRENT_USER.password', undefined);
    check('filter[published_at][_gt]=$NOW(-2 weeks)&filter[published_on][_lte]=$NOW(+1 year)&filter[author][owner][_eq]=$CURRENT_USER');
  });
});

describe('validateQuery: the read policy', () => {
  it('forbids fields outside allowedFields wherever they are used', () => {
    forbidden('fields=price');
    forbidden('fields=author.name');
    forbidden('filter[price][_gt]=1');
    forbidden('filter[author][name][_eq]=x');
    forbidden('sort=price');
    forbidden('sort=author.name');
    forbidden('aggregate[sum]=price');
    forbidden('aggregate[count]=*&groupBy=status');
    forbidden('deep[author][_filter][name][_eq]=x');
    forbidden('deep[author][articles][_limit]=1');
    forbidden('alias[cost]=price&fields=cost');
    forbidden('deep[tags][_limit]=1');
  });

  it('hides whether a forbidden field exists', () => {
    const unknown = rejection('fields=no_such_field', restricted);
    const hidden = rejection('fields=price', restricted);
    expect(unknown).toBeInstanceOf(ForbiddenError);
    expect(unknown.message.replace('no_such_field', 'X')).toBe(hidden.message.replace('price', 'X'));
  });

  it('refuses filtering, sorting, grouping and aggregating a concealed field with a 400 naming it, without a policy too', () => {
    invalid('filter[secret][_eq]=x', /is concealed/, 'secret');
    invalid('filter[secret][_null]=true&filter[secret][_contains]=x', /is concealed/, 'secret');
    check('filter[secret][_null]=true');
    check('filter[secret][_nnull]=false');
    invalid('sort=secret', /is concealed/, 'secret');
    invalid('groupBy=secret', /is concealed/, 'secret');
    invalid('aggregate[min]=secret', /is concealed/, 'secret');
    check('aggregate[count]=secret');
    check('fields=secret');
  });

  it('leaves forbidden and concealed fields out of wildcards and search', () => {
    const { statement } = compileReadQuery(schema, 'articles', parseQuery('search=7&fields=*'), { accountability: null, policy: restricted });
    const { sql, parameters } = statement.compile(compiler);
    expect(sql).not.toContain('"price"');
    expect(sql).not.toMatch(/"secret" (ilike|=)/);
    expect(parameters).not.toContain('price');
    expect(parameters).toContain('secret');
  });
});

describe('compiled SQL', () => {
  it('binds every value as a parameter and quotes identifiers from the schema', () => {
    const query = parseQuery(`filter[title][_eq]=${encodeURIComponent("x'; drop table articles; --")}&search=${encodeURIComponent("o'hara")}&alias[${encodeURIComponent('we"ird')}]=title&fields=${encodeURIComponent('we"ird')}`);
    const { sql, parameters } = compileReadQuery(schema, 'articles', query, { accountability: null }).statement.compile(compiler);
    expect(sql).not.toContain('drop table');
    expect(sql).not.toContain("o'hara");
    expect(sql).not.toContain('we"ird');
    expect(parameters).toContain("x'; drop table articles; --");
    expect(parameters).toContain('we"ird');
  });

  it('chunks objects past the 100-argument limit of json_build_object', () => {
    const alias = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`title_${index}`, 'title']));
    const { sql } = compileReadQuery(schema, 'articles', { fields: Object.keys(alias), alias }, { accountability: null }).statement.compile(compiler);
    expect(sql).toMatch(/^select \(json_build_object\(.*\)::jsonb \|\| json_build_object\(.*\)::jsonb\)::json as data/);
  });
});
