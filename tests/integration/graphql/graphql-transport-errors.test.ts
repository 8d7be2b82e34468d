import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Malformed GraphQL requests are 400s in the one error shape, never 500s (docs/graphql.md, "Errors"). */
let t: TestApp;
let admin: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }] }).expect(200);
  await t.request.post('/items/notes').set(auth(admin)).send([{ text: 'one' }, { text: 'two' }]).expect(200);
});
afterAll(() => t?.close());

function expectPayloadError(response: { status: number; body: any }, field: string | null, label: string): void {
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(400);
  expect(response.body.errors, label).toHaveLength(1);
  const [error] = response.body.errors;
  expect(error.message, label).toEqual(expect.any(String));
  expect(error.extensions.code, label).toBe('INVALID_PAYLOAD');
  if (field) expect(error.extensions.field, label).toBe(field);
}

describe.each(['/graphql', '/graphql/system'])('%s transport errors', (path) => {
  const posts: Array<[string, unknown, string | null]> = [
    ['an empty object', {}, 'query'],
    ['a number as query', { query: 1 }, 'query'],
    ['a null query', { query: null }, 'query'],
    ['a string as variables', { query: '{ __typename }', variables: 'x' }, 'variables'],
    ['a list as variables', { query: '{ __typename }', variables: [1] }, 'variables'],
    ['a number as operationName', { query: '{ __typename }', operationName: 1 }, 'operationName'],
    ['a list as extensions', { query: '{ __typename }', extensions: [] }, 'extensions'],
    ['a list as the body', [], null],
    ['a list of requests', [{ query: '{ __typename }' }], null],
  ];
  it.each(posts)('POST with %s is a 400', async (label, body, field) => {
    expectPayloadError(await t.request.post(path).set(auth(admin)).send(body as object), field, label);
  });

  it('POST with a JSON text that is a string is a 400', async () => {
    expectPayloadError(await t.request.post(path).set(auth(admin)).set('Content-Type', 'application/json').send('"query"'), null, 'string body');
  });

  it('GET without a query, or with variables that are not JSON, is a 400', async () => {
    expectPayloadError(await t.request.get(path).set(auth(admin)), 'query', 'no query');
    expectPayloadError(await t.request.get(`${path}?query=${encodeURIComponent('{ __typename }')}&variables=%7Bnope`).set(auth(admin)), 'variables', 'bad variables');
    expectPayloadError(await t.request.get(`${path}?query=${encodeURIComponent('{ __typename }')}&variables=%22x%22`).set(auth(admin)), 'variables', 'string variables');
  });

  it('still answers a well-formed request', async () => {
    const response = await t.request.post(path).set(auth(admin)).send({ query: '{ __typename }' });
    expect(response.status).toBe(200);
    expect(response.body.data.__typename).toEqual(expect.any(String));
  });
});

describe('NUL characters in GraphQL arguments', () => {
  it('refuses a search with NUL as REST does, naming search (the field fails; the request ran: 200)', async () => {
    const rest = await t.request.get('/items/notes?search=a%00b').set(auth(admin));
    expect(rest.status).toBe(400);
    const response = await t.request.post('/graphql').set(auth(admin)).send({ query: 'query ($s: String) { notes(search: $s) { id } }', variables: { s: 'a\u0000b' } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toBeNull();
    expect(response.body.errors[0].extensions.code).toBe(rest.body.errors[0].extensions.code);
    expect(response.body.errors[0].message).toMatch(/search/);
  });

  it('refuses NUL in a filter value with a client error, not an internal error', async () => {
    const response = await t.request.post('/graphql').set(auth(admin)).send({ query: 'query ($v: String) { notes(filter: { text: { _eq: $v } }) { id } }', variables: { v: 'a\u0000b' } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.errors[0].extensions.code).toBe('INVALID_QUERY');
    expect(response.body.errors[0].extensions.code).not.toBe('INTERNAL_SERVER_ERROR');
  });
});

describe('documents refused before they run', () => {
  it.each([
    ['a syntax error', '{ '],
    ['an unknown field', '{ nope }'],
    ['two operations and no operationName', 'query A { __typename } query B { __typename }'],
  ])('%s is a 400 GRAPHQL_VALIDATION in the same shape', async (_label, query) => {
    const response = await t.request.post('/graphql').set(auth(admin)).send({ query });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toEqual(expect.objectContaining({ message: expect.any(String), extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION' }) }));
  });
});
