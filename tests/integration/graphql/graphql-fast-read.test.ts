import { execute, getOperationAST, parse, validate, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccountability, type Accountability } from '../../../server/auth/accountability.ts';
import type { GraphQLContext } from '../../../server/graphql/build-schema.ts';
import { fragmentsOf } from '../../../server/graphql/document-cache.ts';
import { fastRead, fastReadJson } from '../../../server/graphql/fast-read.ts';
import { formatError } from '../../../server/graphql/graphql-handlers.ts';
import { createGraphQLSchemaCache } from '../../../server/graphql/schema-cache.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let admin: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const send = async (path: string, body: unknown) => t.request.post(path).set(auth(admin)).send(body as object).expect(200);
  await send('/collections', { collection: 'writers', fields: [{ field: 'name', type: 'string' }, { field: 'score', type: 'integer' }, { field: 'rating', type: 'float' }, { field: 'active', type: 'boolean' }] });
  await send('/collections', {
    collection: 'posts',
    fields: [
      { field: 'title', type: 'string' },
      { field: 'views', type: 'integer' },
      { field: 'price', type: 'decimal' },
      { field: 'big', type: 'bigInteger' },
      { field: 'published_on', type: 'timestamp' },
      { field: 'data', type: 'json' },
      { field: 'writer', type: 'integer' },
      { field: 'day', type: 'date' },
      { field: 'at', type: 'time' },
      { field: 'local', type: 'dateTime' },
      { field: 'tags', type: 'csv', meta: { special: ['cast-csv'] } },
      { field: 'ref', type: 'uuid' },
      { field: 'body', type: 'text' },
      { field: 'spot', type: 'geometry.Point' },
    ],
  });
  await send('/relations', { collection: 'posts', field: 'writer', related_collection: 'writers', meta: { one_field: 'posts' } });
  await send('/items/writers', [
    { name: 'Ada', score: 3, rating: 4.5, active: true },
    { name: 'Bob', score: null, rating: null, active: false },
    { name: 'Cy', score: -7, rating: 0.00001, active: null },
  ]);
  await send('/items/posts', [
    { title: 'a1', views: 10, price: '12.50', big: '9007199254740993', published_on: '2024-05-01T10:00:00Z', writer: 1, data: { k: [1, 'two', null] } },
    { title: 'a2', views: 20, writer: 1, data: 'text' },
    { title: 'b1', views: 5, writer: 2 },
    { title: 'orphan', views: 0, writer: null, data: 0 },
    {
      title: 'every "type" \\ ü',
      views: -2147483648,
      price: '-0.000100',
      big: '-9223372036854775808',
      published_on: '1999-12-31T23:59:59.123Z',
      writer: 2,
      day: '2024-02-29',
      at: '23:59:58',
      local: '2024-02-29T12:34:56',
      tags: ['a', 'b c'],
      ref: '0b7d3c1e-5f2a-4c3b-9d8e-1a2b3c4d5e6f',
      body: 'line\nbreak\t"quoted" </script>',
      spot: { type: 'Point', coordinates: [13.4, 52.52] },
      data: { z: 1, a: [true, 1.5, 'x', { deep: null }], 'ü': '\u2028' },
    },
  ]);
});
afterAll(() => t.close());

async function bothWays(query: string, variableValues?: Record<string, unknown>, accountability: Accountability = systemAccountability()) {
  const { schema, overview, access } = await createGraphQLSchemaCache(t.context)(accountability, 'items');
  const document: DocumentNode = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const contextValue = (): GraphQLContext => ({ items: { ...t.context.servicesContext(accountability), schema: overview, access } });
  const operation = getOperationAST(document)!;
  const fast = await fastRead({ schema, operation, fragments: fragmentsOf(document), variableValues, contextValue: contextValue() });
  const reference = await execute({ schema, document, variableValues, contextValue: contextValue() });
  const serialise = (result: { data?: unknown; errors?: readonly unknown[] }) =>
    JSON.stringify(result.errors ? { errors: result.errors.map((error) => formatError(error)), data: result.data } : { data: result.data });
  const json = await fastReadJson({ schema, operation, fragments: fragmentsOf(document), variableValues, contextValue: contextValue() });
  return {
    fast: fast && serialise(fast),
    // The PostgreSQL-built body as text, or (Float fields, a failed read) fastRead's result serialised.
    json: typeof json === 'string' ? json : json && serialise(json),
    builtByPostgres: typeof json === 'string',
    reference: serialise(reference as { data?: unknown; errors?: readonly unknown[] }),
  };
}

describe('GraphQL fast read path', () => {
  const answered: Array<[string, string, Record<string, unknown>?]> = [
    ['plain columns of every scalar type', '{ posts(sort: ["id"]) { id title views price big published_on data day at local tags ref body spot } }'],
    ['integers, floats, booleans and nulls', '{ writers(sort: ["id"]) { id name score rating active } }'],
    ['aliases of nested relations, an empty one-to-many', '{ w: writers(sort: ["id"]) { key: id mine: posts(sort: ["id"]) { t: title by: writer { n: name again: id } } first: posts(sort: ["id"], limit: 1) { id } } }'],
    ['a many-to-one key, nested twice, with __typename between', '{ posts(sort: ["-id"]) { __typename writer { __typename id posts(sort: ["views"]) { views writer { name } } } } }'],
    ['@include and @skip with variables on nested relations', 'query ($deep: Boolean!, $nope: Boolean!) { writers(sort: ["id"]) { name posts(sort: ["id"]) @include(if: $deep) { title @skip(if: $nope) day @include(if: $nope) writer @skip(if: $nope) { name } } } }', { deep: true, nope: false }],
    ['fragments on nested relations', 'query { posts(sort: ["id"]) { ...Post } } fragment Post on posts { title writer { ...Writer ... on writers { posts(limit: 1, sort: ["id"]) { ...Tiny } } } } fragment Writer on writers { name active } fragment Tiny on posts { id }'],
    ['aliases at every level', '{ list: posts(sort: ["-id"], limit: 3) { key: id heading: title by: writer { who: name } } }'],
    ['__typename at the root and on nested objects', '{ __typename posts(limit: 2, sort: ["id"]) { __typename id writer { __typename name } } }'],
    ['a null many-to-one', '{ posts(filter: { title: { _eq: "orphan" } }) { title writer { name } } }'],
    ['one-to-many with its own arguments', '{ writers(sort: ["id"]) { name posts(sort: ["-views"], limit: 1, filter: { views: { _gte: 6 } }) { title views } } }'],
    ['named and inline fragments', 'query { posts(sort: ["id"], limit: 2) { ...P ... on posts { views } } } fragment P on posts { id writer { ...W } } fragment W on writers { name }'],
    ['@include and @skip with literals', '{ posts(sort: ["id"]) { id title @skip(if: true) views @include(if: false) writer @include(if: true) { name } } }'],
    ['@include and @skip with variables, variables in arguments', 'query ($show: Boolean!, $hide: Boolean = false, $limit: Int, $f: posts_filter) { posts(limit: $limit, filter: $f, sort: ["id"]) { id title @include(if: $show) views @skip(if: $hide) } }', { show: true, limit: 2, f: { views: { _lt: 15 } } }],
    ['a fragment switched off by a variable', 'query ($on: Boolean!) { posts(sort: ["id"]) { id ... on posts @include(if: $on) { title } } }', { on: false }],
    ['two root fields, one read each', '{ writers(sort: ["id"]) { name } posts(sort: ["id"], limit: 1) { title } }'],
    ['an empty list', '{ posts(filter: { views: { _gt: 1000 } }) { id } }'],
    ['a failing read: the same located error and null data', '{ posts(sort: ["nope"]) { id } }'],
  ];
  // Float fields are printed by JavaScript (PostgreSQL prints some doubles differently) and a failed read has no text.
  const objectOnly = new Set(['integers, floats, booleans and nulls', 'a failing read: the same located error and null data']);
  // jsonb prints spaces after `:` and `,` inside JSON values: the same JSON, other bytes.
  const jsonValues = new Set(['plain columns of every scalar type']);
  for (const [what, query, variables] of answered) {
    it(`answers ${what} with the same response as graphql-js`, async () => {
      const { fast, json, builtByPostgres, reference } = await bothWays(query, variables);
      expect(fast).not.toBeNull();
      expect(fast).toBe(reference);
      expect(builtByPostgres).toBe(!objectOnly.has(what));
      expect(JSON.stringify(JSON.parse(json!))).toBe(reference);
      if (!jsonValues.has(what)) expect(json).toBe(reference);
    });
  }

  const declined: Array<[string, string]> = [
    ['by id', '{ posts_by_id(id: 1) { id } }'],
    ['aggregates', '{ posts_aggregated { countAll } }'],
    ['introspection', '{ __schema { queryType { name } } }'],
    ['a response key selected twice (field merging)', '{ posts { id id } }'],
    ['a root field mixed with one it cannot answer', '{ posts { id } posts_by_id(id: 1) { id } }'],
  ];
  for (const [what, query] of declined) {
    it(`leaves ${what} to graphql-js`, async () => {
      const { fast, json, reference } = await bothWays(query);
      expect(fast).toBeNull();
      expect(json).toBeNull();
      expect(JSON.parse(reference)).toHaveProperty('data');
    });
  }

  it('serves the fast-path documents over HTTP with the data graphql-js gives', async () => {
    const query = '{ list: posts(sort: ["id"], limit: 2) { __typename id title writer { name } } }';
    const { reference } = await bothWays(query);
    for (let round = 0; round < 2; round++) {
      // The second round takes the cached document and its cached plan.
      const again = await t.request.post('/graphql').set(auth(admin)).send({ query }).expect(200);
      expect(again.text).toBe(reference);
      expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    const response = await t.request.post('/graphql').set(auth(admin)).send({ query }).expect(200);
    expect(response.body.data.list[0]).toEqual({ __typename: 'posts', id: '1', title: 'a1', writer: { name: 'Ada' } });
  });
});
