import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Issue 31, m2m "Depth Tests" of Directus's suite: list arguments on a many-to-one field nested in
 * many-to-many lists (Directus gives every relational field them), checked against MAX_RELATIONAL_DEPTH.
 * Foods have ingredients (foods), through foods_ingredients (foods_id → foods, ingredients_id → foods).
 */
let t: TestApp;
let admin: string;
const auth = () => ({ Authorization: `Bearer ${admin}` });
const gql = (query: string) => t.request.post('/graphql').set(auth()).send({ query });
let foodId: string;

beforeAll(async () => {
  t = await createTestApp({ MAX_RELATIONAL_DEPTH: '5' });
  admin = await t.login();
  const send = (path: string, body: object) => t.request.post(path).set(auth()).send(body).expect(200);
  await send('/collections', { collection: 'foods', schema: {}, fields: [{ field: 'id', type: 'uuid', schema: { is_primary_key: true }, meta: { special: ['uuid'] } }, { field: 'name', type: 'string' }] });
  await send('/collections', { collection: 'foods_ingredients', fields: [{ field: 'foods_id', type: 'uuid' }, { field: 'ingredients_id', type: 'uuid' }] });
  await send('/relations', { collection: 'foods_ingredients', field: 'foods_id', related_collection: 'foods', meta: { one_field: 'ingredients', junction_field: 'ingredients_id' } });
  await send('/relations', { collection: 'foods_ingredients', field: 'ingredients_id', related_collection: 'foods', meta: { junction_field: 'foods_id' } });
  const created = await send('/items/foods', { name: 'soup', ingredients: { create: [{ foods_id: { name: 'salt' } }], update: [], delete: [] } });
  foodId = created.body.data.id;
});
afterAll(() => t.close());

const nested = (args: string) => `{ foods(filter: { id: { _eq: "${'$ID'}" } }) { ingredients { foods_id { ingredients { foods_id${args} { id } } } } } }`;

describe('list arguments on a nested many-to-one field (GraphQL)', () => {
  it('accepts sort and filter up to the depth limit', async () => {
    for (const args of ['(sort: "id")', `(filter: { id: { _eq: "${'$ID'}" } })`]) {
      const response = await gql(nested(args).replaceAll('$ID', foodId));
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.foods[0].ingredients[0].foods_id.ingredients[0].foods_id.id).toEqual(expect.any(String));
    }
  });

  it('refuses sort and filter past the depth limit in Directus\'s words', async () => {
    for (const args of ['(sort: "ingredients.id")', `(filter: { ingredients: { id: { _eq: "${'$ID'}" } } })`]) {
      const response = await gql(nested(args).replaceAll('$ID', foodId));
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors[0].message).toBe('Invalid query. Max relational depth exceeded.');
    }
  });
});

describe('what the list arguments do to one item', () => {
  it('reads a related item its filter or search rejects as null, and ignores limit, offset and page', async () => {
    const read = async (args: string) => {
      const response = await gql(`{ foods_ingredients { foods_id${args} { name } } }`);
      expect(response.body.errors).toBeUndefined();
      return response.body.data.foods_ingredients[0].foods_id;
    };
    const { name } = await read('');
    expect(await read(`(filter: { name: { _eq: "${name}" } })`)).toEqual({ name });
    expect(await read('(filter: { name: { _eq: "pepper" } })')).toBeNull();
    expect(await read('(search: "pepper")')).toBeNull();
    expect(await read('(sort: "-name", limit: 0, offset: 3, page: 2)')).toEqual({ name });
  });

  it('still refuses a sort on a field the related collection lacks, naming it', async () => {
    const response = await gql('{ foods_ingredients { foods_id(sort: "nope") { name } } }');
    expect(response.body.errors[0].message).toMatch(/nope/);
    expect(response.body.errors[0].extensions.code).toBe('INVALID_QUERY');
  });
});

describe('sort on a one-item REST read', () => {
  it('is checked against the depth limit and otherwise changes nothing', async () => {
    const sort = 'ingredients.foods_id.ingredients.foods_id.id';
    const ok = await t.request.get(`/items/foods/${foodId}`).query({ fields: '*.*.*.*.*', sort }).set(auth());
    expect({ status: ok.status, errors: ok.body.errors }).toEqual({ status: 200, errors: undefined });
    expect(ok.body.data.ingredients[0].foods_id.ingredients[0].foods_id.ingredients).toEqual([expect.any(Number)]);
    const deep = await t.request.get(`/items/foods/${foodId}`).query({ fields: '*.*.*.*.*', deep: JSON.stringify({ ingredients: { _sort: 'foods_id.ingredients.foods_id.id' } }) }).set(auth());
    expect({ status: deep.status, errors: deep.body.errors }).toEqual({ status: 200, errors: undefined });
    const over = await t.request.get(`/items/foods/${foodId}`).query({ fields: '*.*.*.*.*', sort: `${sort.replace(/\.id$/, '')}.ingredients.id` }).set(auth());
    expect(over.status).toBe(400);
    expect(over.body.errors[0].message).toBe('Invalid query. Max relational depth exceeded.');
  });
});
