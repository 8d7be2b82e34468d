import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 31, class 2: MAX_BATCH_MUTATION and MAX_RELATIONAL_DEPTH, with the messages Directus answers
// (its clients and its own test suite match on them).
const BATCH_LIMIT = 'Invalid payload. Exceeded max batch mutation limit of 10.';
const DEPTH_LIMIT = 'Invalid query. Max relational depth exceeded.';

describe('MAX_BATCH_MUTATION and MAX_RELATIONAL_DEPTH (issue 31)', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  const count = async (collection: string) => (await t.request.get(`/items/${collection}?aggregate[count]=*`).set(auth()).expect(200)).body.data[0].count;
  const states = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}` }));

  beforeAll(async () => {
    t = await createTestApp({ MAX_BATCH_MUTATION: '10', MAX_RELATIONAL_DEPTH: '3' });
    admin = await t.login();
    await t.request.post('/collections').set(auth()).send({ collection: 'countries', fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request.post('/collections').set(auth()).send({ collection: 'states', fields: [{ field: 'name', type: 'string' }, { field: 'country', type: 'integer' }] }).expect(200);
    await t.request.post('/relations').set(auth()).send({ collection: 'states', field: 'country', related_collection: 'countries', meta: { one_field: 'states' } }).expect(200);
  });
  afterAll(() => t.close());

  it('creates up to the limit, nested items counted, and refuses one more without writing anything', async () => {
    await t.request.post('/items/countries').set(auth()).send(states(10, 'c')).expect(200);
    await t.request.post('/items/countries').set(auth()).send({ name: 'nine', states: states(9, 's') }).expect(200);
    const before = [await count('countries'), await count('states')];

    const batch = await t.request.post('/items/countries').set(auth()).send(states(11, 'x')).expect(400);
    expect(batch.body.errors[0]).toMatchObject({ message: BATCH_LIMIT, extensions: { code: 'INVALID_PAYLOAD' } });
    const nested = await t.request.post('/items/countries').set(auth()).send({ name: 'ten', states: states(10, 't') }).expect(400);
    expect(nested.body.errors[0].message).toBe(BATCH_LIMIT);
    // A later write that succeeds shows the refused ones left nothing behind.
    await t.request.post('/items/countries').set(auth()).send({ name: 'sentinel' }).expect(200);
    expect([await count('countries'), await count('states')]).toEqual([before[0] + 1, before[1]]);
  });

  it('counts every item an update or delete touches, nested changes included', async () => {
    const country = (await t.request.post('/items/countries?fields=id,states.id').set(auth()).send({ name: 'u', states: states(5, 'u') }).expect(200)).body.data;
    const [first, second, third, ...rest] = country.states.map((state: { id: number }) => state.id);
    // 1 country + 4 created + 3 updated + 2 deleted = 10.
    const changes = { create: states(4, 'n'), update: [first, second, third].map((id) => ({ id, name: 'updated' })), delete: rest };
    await t.request.patch('/items/countries').set(auth()).send([{ id: country.id, states: changes }]).expect(200);
    const refused = await t.request.patch(`/items/countries/${country.id}`).set(auth()).send({ states: { create: states(10, 'm') } }).expect(400);
    expect(refused.body.errors[0].message).toBe(BATCH_LIMIT);

    const keys = (await t.request.get('/items/countries?fields=id&limit=-1').set(auth()).expect(200)).body.data.map((item: { id: number }) => item.id);
    expect(keys.length).toBeGreaterThan(10);
    const deleted = await t.request.delete('/items/countries').set(auth()).send(keys).expect(400);
    expect(deleted.body.errors[0].message).toBe(BATCH_LIMIT);
    expect(await count('countries')).toBe(keys.length);
  });

  it('refuses fields, filter, sort and deep paths deeper than MAX_RELATIONAL_DEPTH, counted as Directus counts', async () => {
    const get = (query: Record<string, string>) => t.request.get('/items/states').query(query).set(auth());
    await get({ fields: 'country.states.name' }).expect(200);
    await get({ 'filter[country][states][name][_eq]': 'x' }).expect(200);
    await get({ sort: 'country.name' }).expect(200);
    const tooDeep: Array<Record<string, string>> = [
      { fields: 'country.states.country.name' },
      { 'filter[country][states][country][name][_eq]': 'x' },
      { sort: '-country.states.country.name' },
      { fields: 'country.states.name', 'deep[country][states][_filter][country][name][_eq]': 'x' },
      { 'deep[country][_filter][states][country][name][_eq]': 'x' },
    ];
    for (const query of tooDeep) {
      const refused = await get(query).expect(400);
      expect(refused.body.errors[0]).toMatchObject({ message: DEPTH_LIMIT, extensions: { code: 'INVALID_QUERY' } });
    }
  });
});
