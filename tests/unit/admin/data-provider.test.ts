import { describe, expect, it } from 'vitest';
import { listQuery } from '../../../admin/src/providers/data-provider.ts';
import { toHttpError, toQueryString } from '../../../admin/src/providers/http-client.ts';
import { mapCrudFilter, mapFilters, mapPagination, mapSorters } from '../../../admin/src/providers/query-mapping.ts';
import { itemPath, resourcePath } from '../../../admin/src/providers/resource-paths.ts';

describe('Refine → Tessera query mapping', () => {
  it('maps pagination, sorters, filters and meta of a list read', () => {
    const query = listQuery({
      resource: 'articles',
      pagination: { currentPage: 3, pageSize: 25, mode: 'server' },
      sorters: [{ field: 'date', order: 'desc' }, { field: 'title', order: 'asc' }],
      filters: [{ field: 'status', operator: 'eq', value: 'published' }],
      meta: { fields: ['id', 'title', 'author.name'], search: 'hello', filter: { rating: { _gte: 4 } } },
    });
    expect(query).toEqual({
      fields: ['id', 'title', 'author.name'],
      limit: 25,
      page: 3,
      sort: '-date,title',
      filter: { _and: [{ status: { _eq: 'published' } }, { rating: { _gte: 4 } }] },
      search: 'hello',
      meta: 'filter_count',
    });
    expect(toQueryString(query)).toBe(
      '?fields=id%2Ctitle%2Cauthor.name&limit=25&page=3&sort=-date%2Ctitle&filter=%7B%22_and%22%3A%5B%7B%22status%22%3A%7B%22_eq%22%3A%22published%22%7D%7D%2C%7B%22rating%22%3A%7B%22_gte%22%3A4%7D%7D%5D%7D&search=hello&meta=filter_count',
    );
  });

  it('turns pagination off into limit=-1 and defaults to the first page of 10', () => {
    expect(mapPagination({ mode: 'off' })).toEqual({ limit: -1 });
    expect(mapPagination(undefined)).toEqual({ limit: 10, page: 1 });
  });

  it('maps every operator family, nested paths and and/or groups', () => {
    expect(mapCrudFilter({ field: 'title', operator: 'contains', value: 'a' })).toEqual({ title: { _icontains: 'a' } });
    expect(mapCrudFilter({ field: 'title', operator: 'containss', value: 'a' })).toEqual({ title: { _contains: 'a' } });
    expect(mapCrudFilter({ field: 'rating', operator: 'between', value: [1, 5] })).toEqual({ rating: { _between: [1, 5] } });
    expect(mapCrudFilter({ field: 'author.name', operator: 'startswith', value: 'Ad' })).toEqual({ author: { name: { _istarts_with: 'Ad' } } });
    expect(mapCrudFilter({ field: 'deleted_at', operator: 'null', value: undefined })).toEqual({ deleted_at: { _null: true } });
    expect(
      mapCrudFilter({ operator: 'or', value: [{ field: 'a', operator: 'ne', value: 1 }, { field: 'b', operator: 'in', value: [1, 2] }] }),
    ).toEqual({ _or: [{ a: { _neq: 1 } }, { b: { _in: [1, 2] } }] });
    expect(() => mapCrudFilter({ field: 'a', operator: 'ina', value: [1] })).toThrow(/Unsupported filter operator "ina"/);
  });

  it('drops cleared filters and returns no filter when nothing is left', () => {
    expect(mapFilters([{ field: 'title', operator: 'contains', value: '' }, { field: 'tags', operator: 'in', value: [] }])).toBeUndefined();
    expect(mapFilters([{ field: 'title', operator: 'eq', value: 'x' }])).toEqual({ title: { _eq: 'x' } });
    expect(mapSorters([])).toBeUndefined();
  });
});

describe('resource paths', () => {
  it('routes system collections to their endpoints and others to /items', () => {
    expect(resourcePath('users')).toBe('/users');
    expect(resourcePath('tessera_roles')).toBe('/roles');
    expect(resourcePath('articles')).toBe('/items/articles');
    expect(itemPath('articles', 15)).toBe('/items/articles/15');
    expect(itemPath('fields', 'articles/title')).toBe('/fields/articles/title');
    expect(itemPath('articles', 'a b')).toBe('/items/articles/a%20b');
  });
});

describe('the error envelope as an HttpError', () => {
  it('keeps the code and groups messages by field for forms', () => {
    const error = toHttpError(
      400,
      { errors: [{ message: 'Value for field "slug" has to be unique.', extensions: { code: 'RECORD_NOT_UNIQUE', field: 'slug' } }, { message: 'too long', extensions: { code: 'VALUE_TOO_LONG', field: 'title' } }] },
      'Bad Request',
    );
    expect(error).toEqual({
      message: 'Value for field "slug" has to be unique.',
      statusCode: 400,
      code: 'RECORD_NOT_UNIQUE',
      extensions: { code: 'RECORD_NOT_UNIQUE', field: 'slug' },
      errors: { slug: ['Value for field "slug" has to be unique.'], title: ['too long'] },
    });
  });

  it('falls back to the status text when the body is not an envelope', () => {
    expect(toHttpError(502, '<html>', 'Bad Gateway')).toEqual({ message: 'Bad Gateway', statusCode: 502, code: undefined, errors: undefined });
  });
});
