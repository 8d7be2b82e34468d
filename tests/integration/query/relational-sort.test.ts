import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, InvalidQueryError } from '../../../server/errors.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import type { ReadPolicy } from '../../../server/query/types.ts';
import { openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

async function ids(query: string, policy?: ReadPolicy): Promise<unknown[]> {
  const { data } = await readByQuery(fixture.db, fixture.schema, 'articles', parseQuery(`fields=id&${query}`), { accountability: null, policy });
  return data.map((item) => item.id);
}

/** A policy seeing every field, with row filters for some collections and field lists for others. */
function policy(rows: Record<string, object>, fields: Record<string, string[]> = {}): ReadPolicy {
  return {
    itemFilter: (collection) => (rows[collection] as never) ?? null,
    allowedFields: (collection) => (fields[collection] ? new Set(fields[collection]) : '*'),
  };
}

// Comments: article 1 'Great post', 'SECRET spam', 'Thanks'; article 2 'Nice'. Tags (m2m): 1 news, tech,
// secret-tag; 2 tech; 4 secret-tag. Authors: articles 1 and 3 Ada, 2 Brian, 4 Hal, 5 none.
describe('sort through one-to-many and many-to-many paths', () => {
  it.each([
    // Ascending ranks a parent by its smallest related value, descending by its largest; no related
    // value sorts as null (last ascending, first descending, as PostgreSQL orders nulls).
    ['sort=comments.body', [1, 2, 3, 4, 5]],
    ['sort=-comments.body', [3, 4, 5, 1, 2]],
    ['sort=tags.tags_id.name', [1, 4, 2, 3, 5]],
    ['sort=-tags.tags_id.name', [3, 5, 1, 2, 4]],
    ['sort=-tags.tags_id.name,-id', [5, 3, 2, 1, 4]],
    ['sort=author.articles.rating', [2, 4, 1, 3, 5]],
    ['sort=-author.articles.rating', [5, 1, 3, 4, 2]],
    ['sort=tags.tags_id.name&limit=2', [1, 4]],
    ['sort=tags.tags_id.name&limit=2&page=2', [2, 3]],
  ])('%s orders %j, each article once', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('ranks by the related items the caller may see only', async () => {
    const hideGreat = policy({ comments: { body: { _nstarts_with: 'G' } } });
    expect(await ids('sort=comments.body')).toEqual([1, 2, 3, 4, 5]);
    expect(await ids('sort=comments.body', hideGreat)).toEqual([2, 1, 3, 4, 5]);
  });

  it('refuses a related field the caller cannot read, as for a many-to-one path', async () => {
    const noBody = policy({}, { comments: ['id', 'article'] });
    const error = await ids('sort=-comments.body', noBody).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ extensions: { field: 'body' } });
    const noTagName = policy({}, { tags: ['id'] });
    await expect(ids('sort=tags.tags_id.name', noTagName)).rejects.toMatchObject({ status: 403, extensions: { field: 'name' } });
  });

  it('refuses concealed values and values without an order', async () => {
    await expect(ids('sort=author.articles.secret')).rejects.toBeInstanceOf(InvalidQueryError);
    const error = await ids('sort=author.articles.meta').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as Error).message).toContain('author.articles.meta');
  });
});
