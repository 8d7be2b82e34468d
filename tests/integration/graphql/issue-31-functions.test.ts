import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Issue 31 item 2: Directus's `<field>_func { year … count }` read fields, function filters and sorts, and
 * many-to-any filters `item__<collection>` over GraphQL, as Directus's own suite uses them.
 */
let t: TestApp;
let admin: string;
const auth = () => ({ Authorization: `Bearer ${admin}` });
const gql = async (query: string) => {
  const response = await t.request.post('/graphql').set(auth()).send({ query });
  expect(response.body.errors).toBeUndefined();
  expect(response.status).toBe(200);
  return response.body.data;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const send = (path: string, body: object) => t.request.post(path).set(auth()).send(body).expect(200);
  await send('/collections', {
    collection: 'events',
    fields: [
      { field: 'name', type: 'string' },
      { field: 'day', type: 'date' },
      { field: 'at', type: 'dateTime' },
      { field: 'starts', type: 'time' },
      { field: 'tags', type: 'json' },
    ],
  });
  await send('/collections', { collection: 'talks', fields: [{ field: 'title', type: 'string' }, { field: 'event', type: 'integer' }] });
  await send('/relations', { collection: 'talks', field: 'event', related_collection: 'events', meta: { one_field: 'talks' } });
  await send('/items/events', [
    { name: 'early', day: '2002-03-04', at: '2002-05-06T07:08:09', starts: '10:11:12', tags: ['a', 'b', 'c'], talks: [{ title: 'e1' }, { title: 'e2' }] },
    { name: 'late', day: '2007-12-24', at: '2007-01-02T23:45:01', starts: '01:02:03', tags: { not: 'a list' }, talks: [{ title: 'l1' }] },
  ]);

  for (const collection of ['block_a', 'block_b']) await send('/collections', { collection, fields: [{ field: 'label', type: 'string' }, { field: 'at', type: 'dateTime' }] });
  await send('/collections', { collection: 'pages', fields: [{ field: 'name', type: 'string' }] });
  await send('/collections', { collection: 'pages_blocks', fields: [{ field: 'pages_id', type: 'integer' }, { field: 'item', type: 'string' }, { field: 'collection', type: 'string' }] });
  await send('/relations', { collection: 'pages_blocks', field: 'item', related_collection: null, meta: { one_collection_field: 'collection', one_allowed_collections: ['block_a', 'block_b'], junction_field: 'pages_id' } });
  await send('/relations', { collection: 'pages_blocks', field: 'pages_id', related_collection: 'pages', meta: { one_field: 'blocks', junction_field: 'item' } });
  await send('/items/pages', [
    { name: 'first', blocks: [{ collection: 'block_a', item: { label: 'shared', at: '2002-01-01T00:00:00' } }] },
    { name: 'second', blocks: [{ collection: 'block_a', item: { label: 'other', at: '2007-01-01T00:00:00' } }, { collection: 'block_b', item: { label: 'shared' } }] },
  ]);
});
afterAll(() => t.close());

describe('<field>_func read fields', () => {
  it('answers date, time and datetime parts and counts of one-to-many and json fields', async () => {
    const data = await gql('{ events(sort: "name") { name day_func { year month day weekday } at_func { year week hour minute second } starts_func { hour minute second } talks_func { count } tags_func { count } } }');
    expect(data.events).toEqual([
      {
        name: 'early',
        day_func: { year: 2002, month: 3, day: 4, weekday: 1 },
        at_func: { year: 2002, week: 19, hour: 7, minute: 8, second: 9 },
        starts_func: { hour: 10, minute: 11, second: 12 },
        talks_func: { count: 2 },
        tags_func: { count: 3 },
      },
      { name: 'late', day_func: { year: 2007, month: 12, day: 24, weekday: 1 }, at_func: { year: 2007, week: 1, hour: 23, minute: 45, second: 1 }, starts_func: { hour: 1, minute: 2, second: 3 }, talks_func: { count: 1 }, tags_func: { count: null } },
    ]);
  });

  it('reads them through relations, aliased, and by id', async () => {
    const data = await gql('{ talks(sort: "title", limit: 1) { event { y: day_func { year } } } events_by_id(id: 1) { at_func { month } } }');
    expect(data.talks).toEqual([{ event: { y: { year: 2002 } } }]);
    expect(data.events_by_id).toEqual({ at_func: { month: 5 } });
  });

  it('filters and sorts by functions the Directus way', async () => {
    const byYear = await gql('{ events(filter: { at_func: { year: { _eq: 2007 } } }) { name } }');
    expect(byYear.events).toEqual([{ name: 'late' }]);
    const byCount = await gql('{ events(filter: { talks_func: { count: { _gte: 2 } } }) { name } }');
    expect(byCount.events).toEqual([{ name: 'early' }]);
    const byJsonCount = await gql('{ events(filter: { tags_func: { count: { _eq: 3 } } }) { name } }');
    expect(byJsonCount.events).toEqual([{ name: 'early' }]);
    const sorted = await gql('{ events(sort: "-year(day)") { name day_func { year } } }');
    expect(sorted.events.map((event: { name: string }) => event.name)).toEqual(['late', 'early']);
  });

  it('counts a json array over REST too (count(json) → <field>_count)', async () => {
    const response = await t.request.get('/items/events?fields=name,count(tags)&sort=name').set(auth()).expect(200);
    expect(response.body.data).toEqual([
      { name: 'early', tags_count: 3 },
      { name: 'late', tags_count: null },
    ]);
  });
});

describe('many-to-any over GraphQL', () => {
  it('filters by a member collection with item__<collection>', async () => {
    const byA = await gql('{ pages(filter: { blocks: { item__block_a: { label: { _eq: "shared" } } } }) { name } }');
    expect(byA.pages).toEqual([{ name: 'first' }]);
    const byB = await gql('{ pages(filter: { blocks: { item__block_b: { label: { _eq: "shared" } } } }) { name } }');
    expect(byB.pages).toEqual([{ name: 'second' }]);
    const byFunction = await gql('{ pages(filter: { blocks: { item__block_a: { at_func: { year: { _eq: 2007 } } } } }) { name } }');
    expect(byFunction.pages).toEqual([{ name: 'second' }]);
  });

  it('reads member fields, functions among them, with one fragment and __typename for the others', async () => {
    const data = await gql('{ pages(filter: { name: { _eq: "second" } }) { blocks(sort: "id") { item { __typename ... on block_a { label at_func { year } } } } } }');
    expect(data.pages).toEqual([{ blocks: [{ item: { __typename: 'block_a', label: 'other', at_func: { year: 2007 } } }, { item: { __typename: 'block_b' } }] }]);
  });
});
