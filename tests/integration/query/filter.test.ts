import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Accountability } from '../../../server/auth/accountability.ts';
import { InvalidQueryError } from '../../../server/errors.ts';
import { parseQuery } from '../../../server/query/parse-query.ts';
import { readByQuery } from '../../../server/query/run-query.ts';
import { FIXTURE_IDS, openQueryFixture, type QueryFixture } from '../../helpers/schema-fixture.ts';

let fixture: QueryFixture;
beforeAll(async () => {
  fixture = await openQueryFixture();
});
afterAll(() => fixture.close());

const ada: Accountability = { user: FIXTURE_IDS.ada, role: FIXTURE_IDS.editors, admin: false, app: true, ip: null, userAgent: null, origin: null, session: null, share: null };

/** Ids of the articles a filter (JSON) selects, in id order. */
async function ids(filter: object, accountability: Accountability | null = null): Promise<unknown[]> {
  const query = { fields: ['id'], filter: filter as never, sort: ['id'] };
  const { data } = await readByQuery(fixture.db, fixture.schema, 'articles', query, { accountability });
  return data.map((item) => item.id);
}

describe('comparison operators', () => {
  it.each([
    [{ title: { _eq: 'Hello World' } }, [1]],
    [{ status: { _neq: 'published' } }, [3, 5]],
    [{ rating: { _lt: 4 } }, [2, 5]],
    [{ rating: { _lte: '4' } }, [2, 4, 5]],
    [{ rating: { _gt: 3 } }, [1, 4]],
    [{ rating: { _gte: 3 } }, [1, 2, 4]],
    [{ rating: { _gt: 1, _lt: 5 } }, [2, 4]],
    [{ status: { _in: ['published', 'draft'] } }, [1, 2, 3, 4]],
    [{ status: { _in: 'draft,archived' } }, [3, 5]],
    [{ status: { _nin: ['published', 'draft'] } }, [5]],
    [{ rating: { _in: [] } }, []],
    [{ rating: { _null: true } }, [3]],
    [{ rating: { _null: false } }, [1, 2, 4, 5]],
    [{ rating: { _nnull: true } }, [1, 2, 4, 5]],
    [{ title: { _eq: null } }, []],
    [{ uid: { _neq: null } }, [1]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });
});

describe('string operators', () => {
  it.each([
    [{ title: { _contains: 'o' } }, [1, 2, 5]],
    [{ title: { _contains: 'hello' } }, []],
    [{ title: { _icontains: 'HELLO' } }, [1]],
    [{ title: { _ncontains: 'o' } }, [3, 4]],
    [{ title: { _contains: '%' } }, [5]],
    [{ title: { _contains: '_' } }, [5]],
    [{ title: { _starts_with: 'Hid' } }, [4]],
    [{ title: { _istarts_with: 'hid' } }, [4]],
    [{ title: { _nstarts_with: 'H' } }, [2, 3, 5]],
    [{ title: { _ends_with: 'Post' } }, [2]],
    [{ title: { _iends_with: 'POST' } }, [2]],
    [{ title: { _nends_with: 'idea' } }, [1, 2, 4, 5]],
    [{ title: { _regex: '^H.*(World|gem)$' } }, [1, 4]],
    [{ uid: { _starts_with: '3333' } }, [1]],
    [{ keywords: { _contains: 'green' } }, [1]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });
});

describe('ranges, emptiness and typed values', () => {
  it.each([
    [{ price: { _between: [5, 15] } }, [1, 4]],
    [{ price: { _between: '5,15' } }, [1, 4]],
    [{ price: { _nbetween: [5, 15] } }, [2, 5]],
    [{ published_on: { _between: ['2024-01-01', '2024-01-31'] } }, [1, 4]],
    [{ body: { _empty: true } }, [5]],
    [{ keywords: { _empty: true } }, [3, 4, 5]],
    [{ keywords: { _nempty: true } }, [1, 2]],
    [{ keywords: { _empty: false } }, [1, 2]],
    [{ rating: { _empty: true } }, [3]],
    [{ published_on: { _eq: '2024-01-15' } }, [1]],
    [{ published_at: { _lt: '2024-01-15T10:30:01Z' } }, [1, 2]],
    [{ local_at: { _lt: '2024-01-16' } }, [1, 2]],
    [{ reminder: { _eq: '09:15' } }, [1]],
    [{ uid: { _eq: FIXTURE_IDS.articleUid } }, [1]],
    [{ score: { _gt: 2 } }, [1, 2]],
    [{ views: { _eq: '9007199254740993' } }, [1]],
    [{ views: { _gt: '9007199254740992' } }, [1]],
    [{ price: { _eq: 10.5 } }, [1]],
    [{ meta: { _null: true } }, [2, 4, 5]],
    [{ author: { _null: true } }, [5]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('answers a value that does not fit the field with 400 naming the field', async () => {
    const error = await ids({ rating: { _gt: 'abc' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect(error).toMatchObject({ status: 400, extensions: { field: 'rating' } });
  });
});

describe('_and / _or', () => {
  it.each([
    [{ _or: [{ rating: { _gt: 4 } }, { status: { _eq: 'draft' } }] }, [1, 3]],
    [{ _and: [{ status: { _eq: 'published' } }, { rating: { _lt: 5 } }] }, [2, 4]],
    [{ _and: [{ _or: [{ rating: { _eq: 5 } }, { rating: { _eq: 1 } }] }, { status: { _neq: 'archived' } }] }, [1]],
    [{ _or: [] }, []],
    [{ _and: [] }, [1, 2, 3, 4, 5]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('reads the same from bracket syntax as from JSON', async () => {
    const query = parseQuery('fields=id&sort=id&filter[_or][0][rating][_gt]=4&filter[_or][1][status][_eq]=draft');
    const { data } = await readByQuery(fixture.db, fixture.schema, 'articles', query, { accountability: null });
    expect(data).toEqual([{ id: 1 }, { id: 3 }]);
  });
});

describe('relational filters', () => {
  it.each([
    ['m2o field', { author: { name: { _eq: 'Ada Lovelace' } } }, [1, 3]],
    ['m2o boolean', { author: { active: { _eq: 'false' } } }, [4]],
    ['m2o without an item reads as nulls', { author: { name: { _null: true } } }, [5]],
    ['m2o with _or inside', { author: { _or: [{ name: { _starts_with: 'Brian' } }, { active: { _eq: false } }] } }, [2, 4]],
    ['m2o then o2m', { author: { articles: { status: { _eq: 'draft' } } } }, [1, 3]],
    ['o2m, implicit _some', { comments: { body: { _contains: 'Nice' } } }, [2]],
    ['o2m _some', { comments: { _some: { approved: { _eq: false } } } }, [1]],
    ['o2m _none', { comments: { _none: { approved: { _eq: false } } } }, [2, 3, 4, 5]],
    ['o2m _none of anything', { comments: { _none: {} } }, [3, 4, 5]],
    ['o2m then m2o', { comments: { article: { status: { _eq: 'published' } } } }, [1, 2]],
    ['m2m', { tags: { tags_id: { name: { _eq: 'tech' } } } }, [1, 2]],
    ['m2m _none', { tags: { _none: { tags_id: { name: { _eq: 'news' } } } } }, [2, 3, 4, 5]],
    ['m2a scoped', { blocks: { 'item:block_image': { alt: { _eq: 'A picture' } } } }, [1]],
    ['m2a scoped text', { blocks: { 'item:block_text': { text: { _contains: 'Intro' } } } }, [1, 2]],
    ['m2a junction column', { blocks: { collection: { _eq: 'block_image' } } }, [1]],
    ['$FOLLOW, as Directus (issue 31)', { '$FOLLOW(comments,article)': { _some: { approved: { _eq: false } } } }, [1]],
    ['$FOLLOW through a junction', { '$FOLLOW(articles_tags, articles_id)': { tags_id: { name: { _eq: 'tech' } } } }, [1, 2]],
  ])('%s', async (_name, filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('refuses a $FOLLOW that names no many-to-one pointing at the collection, with 400 naming the key', async () => {
    await expect(ids({ '$FOLLOW(comments,body)': { _some: {} } })).rejects.toMatchObject({ status: 400, extensions: { field: '$FOLLOW(comments,body)' } });
    await expect(ids({ '$FOLLOW(tags,id)': { _some: {} } })).rejects.toBeInstanceOf(InvalidQueryError);
  });
});

describe('functions', () => {
  it.each([
    [{ 'year(published_on)': { _eq: 2024 } }, [1, 3, 4]],
    [{ 'month(published_on)': { _eq: '1' } }, [1, 4]],
    [{ 'week(published_on)': { _eq: 3 } }, [1, 4]],
    [{ 'day(published_on)': { _eq: 15 } }, [1]],
    [{ 'weekday(published_on)': { _eq: 0 } }, [3]],
    [{ 'hour(local_at)': { _gte: 10 } }, [1, 3]],
    [{ 'minute(local_at)': { _eq: 15 } }, [3]],
    [{ 'second(local_at)': { _eq: 0 } }, [1, 2, 3, 4]],
    [{ 'hour(reminder)': { _eq: 9 } }, [1]],
    [{ 'hour(published_at)': { _eq: 10 }, 'minute(published_at)': { _eq: 30 } }, [1]],
    [{ 'count(comments)': { _gte: 1 } }, [1, 2]],
    [{ 'count(comments)': { _eq: 0 } }, [3, 4, 5]],
    [{ 'count(tags)': { _gt: 1 } }, [1]],
    [{ author: { 'year(born)': { _lt: 1900 } } }, [1, 3]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });
});

describe('dynamic values', () => {
  it.each([
    [{ published_at: { _gt: '$NOW' } }, [4]],
    [{ published_at: { _gte: '$NOW(-1 day)' } }, [3, 4]],
    [{ published_at: { _lt: '$NOW(-1 day)' } }, [1, 2]],
    [{ published_at: { _gt: '$NOW(+1 day)' } }, [4]],
    [{ published_at: { _gt: '$NOW(+3 days)' } }, []],
    [{ published_at: { _between: ['$NOW(-3 hours)', '$NOW(+3 hours)'] } }, [3]],
    [{ published_at: { _gt: '$NOW(-12 months)' } }, [3, 4]],
    [{ published_on: { _lt: '$NOW' } }, [1, 2, 3, 4]],
  ])('%j selects %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('resolves $CURRENT_USER, $CURRENT_USER.<field> and $CURRENT_ROLE from the accountability', async () => {
    expect(await ids({ author: { owner: { _eq: '$CURRENT_USER' } } }, ada)).toEqual([1, 3]);
    expect(await ids({ author: { owner: { _eq: '$CURRENT_USER' } } }, null)).toEqual([]);
    expect(await ids({ author: { owner: { _neq: '$CURRENT_USER' } } }, null)).toEqual([]);
    expect(await ids({ author: { name: { _eq: '$CURRENT_USER.first_name' } } }, ada)).toEqual([1, 3]);
    expect(await ids({ author: { owner: { _in: ['$CURRENT_USER'] } } }, ada)).toEqual([1, 3]);
    expect(await ids({ author: { name: { _eq: '$CURRENT_USER.first_name' } } }, null)).toEqual([]);
    const role = { ...ada, role: FIXTURE_IDS.articleUid };
    expect(await ids({ uid: { _eq: '$CURRENT_ROLE' } }, role)).toEqual([1]);
    expect(await ids({ status: { _neq: '$CURRENT_ROLE.name' } }, ada)).toEqual([1, 2, 3, 4, 5]);
  });
});
