import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let admin: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function gql(query: string, variables?: Record<string, unknown>) {
  return t.request.post('/graphql').set(auth(admin)).send({ query, variables });
}

async function titles(filter: string): Promise<string[]> {
  const response = await gql(`{ events(filter: ${filter}, sort: ["title"]) { title } }`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.events.map((event: { title: string }) => event.title);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const send = async (path: string, body: unknown) => t.request.post(path).set(auth(admin)).send(body as object).expect(200);
  await send('/collections', { collection: 'venues', fields: [{ field: 'name', type: 'string' }] });
  await send('/collections', {
    collection: 'events',
    fields: [
      { field: 'title', type: 'string' },
      { field: 'starts', type: 'dateTime' },
      { field: 'published', type: 'boolean' },
      { field: 'seats', type: 'integer' },
      { field: 'budget', type: 'bigInteger' },
      { field: 'venue', type: 'integer' },
    ],
  });
  await send('/relations', { collection: 'events', field: 'venue', related_collection: 'venues', meta: { one_field: 'events' } });
  await send('/items/venues', [{ name: 'Hall' }, { name: 'Park' }, { name: 'Empty' }]);
  await send('/items/events', [
    { title: 'Alpha', starts: '2024-03-01T10:00:00', published: true, seats: 100, budget: '9007199254740993', venue: 1 },
    { title: 'Beta', starts: '2025-06-15T18:30:00', published: false, seats: 20, budget: '10', venue: 1 },
    { title: 'Gamma', starts: '2025-12-24T20:00:00', published: true, seats: 50, budget: null, venue: 2 },
    { title: 'delta', starts: null, published: null, seats: null, budget: '5', venue: null },
  ]);
});
afterAll(() => t.close());

describe('typed GraphQL filters (<collection>_filter)', () => {
  it("has Directus's input types: operators by field type, _and/_or, relations, _func", async () => {
    const response = await gql('{ __type(name: "events_filter") { inputFields { name type { name kind ofType { name } } } } }');
    const fields = Object.fromEntries(response.body.data.__type.inputFields.map((field: { name: string; type: { name: string | null; ofType: { name: string } | null } }) => [field.name, field.type.name ?? `[${field.type.ofType!.name}]`]));
    expect(fields).toMatchObject({
      _and: '[events_filter]',
      _or: '[events_filter]',
      id: 'number_filter_operators',
      title: 'string_filter_operators',
      starts: 'date_filter_operators',
      starts_func: 'datetime_function_filter_operators',
      published: 'boolean_filter_operators',
      seats: 'number_filter_operators',
      budget: 'big_int_filter_operators',
      venue: 'venues_filter',
    });
    const venues = await gql('{ __type(name: "venues_filter") { inputFields { name type { name } } } }');
    expect(venues.body.data.__type.inputFields).toEqual(expect.arrayContaining([{ name: 'events', type: { name: 'events_quantifier_filter' } }, { name: 'events_func', type: { name: 'count_function_filter_operators' } }]));
    const count = await gql('{ __type(name: "count_function_filter_operators") { inputFields { name type { name } } } }');
    expect(count.body.data.__type.inputFields).toEqual([{ name: 'count', type: { name: 'number_filter_operators' } }]);
    const strings = await gql('{ __type(name: "string_filter_operators") { inputFields { name } } }');
    expect(strings.body.data.__type.inputFields.map((field: { name: string }) => field.name)).toEqual(expect.arrayContaining(['_eq', '_icontains', '_nstarts_with', '_in', '_null', '_empty']));
  });

  it('filters by every operator family through the query compiler', async () => {
    expect(await titles('{ title: { _icontains: "ALP" } }')).toEqual(['Alpha']);
    expect(await titles('{ title: { _in: ["Beta", "delta"] } }')).toEqual(['Beta', 'delta']);
    expect(await titles('{ seats: { _between: [20, 50] } }')).toEqual(['Beta', 'Gamma']);
    expect(await titles('{ seats: { _gt: 30 }, published: { _eq: true } }')).toEqual(['Alpha', 'Gamma']);
    expect(await titles('{ published: { _null: true } }')).toEqual(['delta']);
    expect(await titles('{ budget: { _eq: "9007199254740993" } }')).toEqual(['Alpha']);
    expect(await titles('{ starts: { _gte: "2025-01-01T00:00:00" } }')).toEqual(['Beta', 'Gamma']);
    expect(await titles('{ starts_func: { year: { _eq: 2025 }, month: { _eq: 12 } } }')).toEqual(['Gamma']);
    expect(await titles('{ _or: [{ seats: { _lt: 30 } }, { _and: [{ title: { _starts_with: "G" } }, { published: { _eq: true } }] }] }')).toEqual(['Beta', 'Gamma']);
  });

  it('filters through relations: m2o fields, o2m fields and count(o2m)', async () => {
    expect(await titles('{ venue: { name: { _eq: "Hall" } } }')).toEqual(['Alpha', 'Beta']);
    const hosting = await gql('{ venues(filter: { events: { published: { _eq: true } } }, sort: ["name"]) { name } }');
    expect(hosting.body.data.venues).toEqual([{ name: 'Hall' }, { name: 'Park' }]);
    const busy = await gql('{ venues(filter: { events_func: { count: { _gte: 2 } } }) { name } }');
    expect(busy.body.data.venues).toEqual([{ name: 'Hall' }]);
    const nested = await gql('{ venues(filter: { name: { _eq: "Hall" } }) { name events(filter: { seats: { _gt: 50 } }) { title } } }');
    expect(nested.body.data.venues).toEqual([{ name: 'Hall', events: [{ title: 'Alpha' }] }]);
    const aggregated = await gql('{ events_aggregated(filter: { venue: { name: { _eq: "Hall" } } }) { sum { seats } } }');
    expect(aggregated.body.data.events_aggregated).toEqual([{ sum: { seats: 120 } }]);
  });

  it('quantifies over one-to-many fields with _some and _none, as REST does', async () => {
    const quantifier = await gql('{ __type(name: "events_quantifier_filter") { inputFields { name type { name } } } }');
    expect(quantifier.body.data.__type.inputFields).toEqual(expect.arrayContaining([{ name: '_some', type: { name: 'events_filter' } }, { name: '_none', type: { name: 'events_filter' } }, { name: 'seats', type: { name: 'number_filter_operators' } }]));
    const venues = async (filter: string) => {
      const response = await gql(`{ venues(filter: ${filter}, sort: ["name"]) { name } }`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.data.venues.map((venue: { name: string }) => venue.name);
    };
    expect(await venues('{ events: { _some: { published: { _eq: true } } } }')).toEqual(['Hall', 'Park']);
    expect(await venues('{ events: { _none: { published: { _eq: false } } } }')).toEqual(['Empty', 'Park']);
    expect(await venues('{ events: { _none: { seats: { _gt: 50 } } } }')).toEqual(['Empty', 'Park']);
    expect(await venues('{ events: { _some: { starts_func: { year: { _eq: 2025 } } } } }')).toEqual(['Hall', 'Park']);
    const filter = { events: { _none: { published: { _eq: false } } } };
    const response = await gql('query ($f: venues_filter) { venues(filter: $f, sort: ["id"]) { id } }', { f: filter });
    const rest = await t.request.get(`/items/venues?fields=id&sort=id&filter=${encodeURIComponent(JSON.stringify(filter))}`).set(auth(admin)).expect(200);
    expect(response.body.data.venues.map((venue: { id: string }) => Number(venue.id))).toEqual(rest.body.data.map((venue: { id: number }) => venue.id));
  });

  it('takes a typed filter in a variable, and gives the same rows as REST', async () => {
    const filter = { _and: [{ venue: { name: { _neq: 'Park' } } }, { seats: { _nnull: true } }] };
    const response = await gql('query ($f: events_filter) { events(filter: $f, sort: ["id"]) { id } }', { f: filter });
    expect(response.status).toBe(200);
    const rest = await t.request.get(`/items/events?fields=id&sort=id&filter=${encodeURIComponent(JSON.stringify(filter))}`).set(auth(admin)).expect(200);
    expect(response.body.data.events.map((event: { id: string }) => Number(event.id))).toEqual(rest.body.data.map((event: { id: number }) => event.id));
  });

  it('refuses a wrong value type, an unknown operator or an unknown field with a 400 naming it', async () => {
    const wrongType = await gql('{ events(filter: { seats: { _eq: true } }) { id } }');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].extensions.errors[0].message).toContain('GraphQLStringOrFloat');
    const unknownOperator = await gql('{ events(filter: { title: { _regex: "x" } }) { id } }');
    expect(unknownOperator.status).toBe(400);
    expect(unknownOperator.body.errors[0].extensions.errors[0].message).toContain('_regex');
    const unknownField = await gql('{ events(filter: { nope: { _eq: 1 } }) { id } }');
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors[0].extensions.errors[0].message).toContain('nope');
    const badVariable = await gql('query ($f: events_filter) { events(filter: $f) { id } }', { f: { seats: { _gt: 'x', _bogus: 1 } } });
    expect(badVariable.status).toBe(400);
    expect(badVariable.body.errors[0].message).toContain('_bogus');
  });
});
