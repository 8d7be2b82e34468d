import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Input that each once gave a 500: every one is now a 4xx with a code and a message naming the field (or a
 * correct result), whether it comes in the query string or a JSON body.
 */
let t: TestApp;
let token: string;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  // 70,000 conditions take more than the default 1 MB.
  t = await createTestApp({ MAX_PAYLOAD_SIZE: '4mb' });
  token = await t.login();
  const fields = [
    { field: 'title', type: 'string' },
    { field: 'n', type: 'integer' },
    { field: 'born', type: 'date' },
    { field: 'seen', type: 'timestamp' },
    { field: 'at', type: 'dateTime' },
    { field: 'parent', type: 'integer' },
  ];
  await t.request.post('/collections').set(auth()).send({ collection: 'things', fields }).expect(200);
  await t.request.post('/relations').set(auth()).send({ collection: 'things', field: 'parent', related_collection: 'things', meta: { one_field: 'children' } }).expect(200);
  await t.request
    .post('/items/things')
    .set(auth())
    .send([
      { title: 'alpha', n: 1, born: '2020-01-01', seen: '2024-01-01T00:00:00Z', at: '2024-01-01T00:00:00' },
      { title: 'beta', n: 2, born: '2021-06-01', seen: '2025-01-01T00:00:00Z', at: '2025-01-01T00:00:00' },
      { title: 'admin@example.com', n: 3 },
    ])
    .expect(200);
}, 60_000);
afterAll(() => t?.close());

type Response = { status: number; body: { data?: unknown; errors?: Array<{ message: string; extensions: { code: string; field?: string } }> } };

function expectClientError(response: Response, code: string, field?: string): void {
  expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(400);
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
  expect(response.body.errors?.[0]?.extensions.code).toBe(code);
  if (field) expect(response.body.errors?.[0]?.message).toContain(field);
}

const get = (query: string) => t.request.get(`/items/things?${query}`).set(auth());
const titles = (response: Response) => (response.body.data as Array<{ title: string }>).map((item) => item.title);

describe('wildcard expansion', () => {
  it('fields=*.*.*.*.*.*.*.*.* (and 11 levels) is 400 INVALID_QUERY naming fields, at once', async () => {
    for (const levels of [9, 11]) {
      const started = performance.now();
      const response = await get(`fields=${Array.from({ length: levels }, () => '*').join('.')}`);
      // 11 segments pass MAX_RELATIONAL_DEPTH (10), refused in Directus's words before any expansion.
      expectClientError(response, 'INVALID_QUERY', levels > 10 ? undefined : 'fields');
      expect(response.body.errors?.[0]?.extensions.field).toBe('fields');
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it('fields=*.*.* still works', async () => {
    const response = await get('fields=*.*.*&limit=1&sort=id').expect(200);
    expect(response.body.data).toHaveLength(1);
  });
});

describe('_regex patterns PostgreSQL refuses', () => {
  it.each(['(?<n>a)', '\\p{L}', 'a{1,100000}', '\\k<n>', '(?<n>a)\\k<n>', 'a{2,1}'])('%s is 400 INVALID_QUERY naming the field', async (pattern) => {
    expectClientError(await get(`filter[title][_regex]=${encodeURIComponent(pattern)}`), 'INVALID_QUERY', 'title');
  });

  it('keeps working patterns working', async () => {
    expect(titles(await get(`filter[title][_regex]=${encodeURIComponent('^(al|be)[a-z]{1,3}a$')}&sort=id`).expect(200))).toEqual(['alpha', 'beta']);
  });
});

describe('dates PostgreSQL cannot represent', () => {
  it.each([
    ['born', '0000-01-01'],
    ['seen', '0000-01-01T00:00:00Z'],
    ['at', '0000-12-31'],
  ])('%s _gt %s is 400 naming the field', async (field, value) => {
    expectClientError(await get(`filter[${field}][_gt]=${value}`), 'INVALID_QUERY', field);
  });

  it.each(['$NOW(-99999999999 year)', '$NOW(+99999999999 day)', '$NOW(-300000 year)', '$NOW(99999999999999999999 second)'])('%s is 400 naming the field', async (value) => {
    for (const field of ['born', 'seen', 'at']) expectClientError(await get(`filter[${field}][_lt]=${encodeURIComponent(value)}`), 'INVALID_QUERY', field);
  });

  it('keeps year 1 and $NOW offsets that fit', async () => {
    expect(titles(await get('filter[born][_gt]=0001-01-01&sort=id').expect(200))).toEqual(['alpha', 'beta']);
    expect(titles(await get(`filter[seen][_gt]=${encodeURIComponent('$NOW(-100 year)')}&sort=id`).expect(200))).toEqual(['alpha', 'beta']);
  });
});

describe('dynamic values of the wrong type', () => {
  it('$CURRENT_USER.email compared with a number is 400 naming the field', async () => {
    expectClientError(await get(`filter[n][_eq]=${encodeURIComponent('$CURRENT_USER.email')}`), 'INVALID_QUERY', 'n');
    expectClientError(await get(`filter[born][_in]=${encodeURIComponent('$CURRENT_USER.email')}`), 'INVALID_QUERY', 'born');
  });

  it('$CURRENT_USER.email compared with text works', async () => {
    expect(titles(await get(`filter[title][_eq]=${encodeURIComponent('$CURRENT_USER.email')}`).expect(200))).toEqual(['admin@example.com']);
  });

  it('$CURRENT_USER (a UUID) compared with a number, and $NOW with text, are 400', async () => {
    expectClientError(await get(`filter[n][_eq]=${encodeURIComponent('$CURRENT_USER')}`), 'INVALID_QUERY', 'n');
    expectClientError(await get(`filter[n][_eq]=${encodeURIComponent('$CURRENT_ROLE.name')}`), 'INVALID_QUERY', 'n');
    expectClientError(await get(`filter[title][_eq]=${encodeURIComponent('$NOW')}`), 'INVALID_QUERY', 'title');
  });
});

describe('more values than PostgreSQL can bind', () => {
  it('_in with 70,000 values in a body query works (one array parameter)', async () => {
    const values = Array.from({ length: 70_000 }, (_, i) => i + 1);
    const response = await t.request.patch('/items/things?fields=title').set(auth()).send({ query: { filter: { n: { _in: values } }, limit: -1 }, data: { born: '2022-02-02' } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((response.body.data as unknown[]).length).toBe(3);
  });

  it('_nin with 70,000 text values works too', async () => {
    const values = Array.from({ length: 70_000 }, (_, i) => `t${i}`);
    const response = await t.request.patch('/items/things?fields=title').set(auth()).send({ query: { filter: { title: { _nin: values } }, sort: ['id'] }, data: { born: '2022-02-03' } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(titles(response)).toEqual(['alpha', 'beta', 'admin@example.com']);
  });

  it('70,000 separate conditions are 400, not 500', async () => {
    const filter = { _or: Array.from({ length: 70_000 }, (_, i) => ({ n: { _eq: i } })) };
    expectClientError(await t.request.delete('/items/things').set(auth()).send({ query: { filter } }), 'INVALID_QUERY', 'filter');
  });
});

describe('filters nested deeper than allowed, from any source', () => {
  /** As JSON text: the test client's own serializer recurses and would overflow first. */
  const nestedJson = (depth: number): string => `${'{"_and":['.repeat(depth)}{"n":{"_eq":1}}${']}'.repeat(depth)}`;
  const nested = (depth: number): object => JSON.parse(nestedJson(depth)) as object;
  const sendJson = (request: ReturnType<TestApp['request']['patch']>, json: string) => request.set(auth()).set('Content-Type', 'application/json').send(json);

  it('_and 10,000 deep in a PATCH/DELETE {query} body is 400 naming filter', async () => {
    expectClientError(await sendJson(t.request.patch('/items/things'), `{"query":{"filter":${nestedJson(10_000)}},"data":{"n":5}}`), 'INVALID_QUERY', 'filter');
    expectClientError(await sendJson(t.request.delete('/items/things'), `{"query":{"filter":${nestedJson(10_000)}}}`), 'INVALID_QUERY', 'filter');
  });

  it('a deep filter as JSON in the query string is 400', async () => {
    expectClientError(await get(`filter=${encodeURIComponent(JSON.stringify(nested(100)))}`), 'INVALID_QUERY', 'filter');
  });

  it('a permission rule nested 10,000 deep is 400, not a stack overflow', async () => {
    const role = await t.request.post('/roles').set(auth()).send({ name: 'Deep', admin_access: false, app_access: true }).expect(200);
    const permission = await sendJson(
      t.request.post('/permissions'),
      `{"role":"${role.body.data.id}","collection":"things","action":"read","fields":["*"],"permissions":${nestedJson(10_000)}}`,
    );
    if (permission.status === 200) {
      const user = await t.request.post('/users').set(auth()).send({ email: 'deep@example.com', password: 'deep-password-1', role: role.body.data.id }).expect(200);
      expect(user.status).toBe(200);
      const deepToken = await t.login('deep@example.com', 'deep-password-1');
      const response = await t.request.get('/items/things').set({ Authorization: `Bearer ${deepToken}` });
      expectClientError(response, 'INVALID_QUERY', 'filter');
    } else {
      expect(permission.status).toBeLessThan(500);
    }
  });
});

describe('paging that overflows', () => {
  it.each([
    ['page=9007199254740991&limit=10000', 'page'],
    ['deep[x][_page]=9007199254740991', 'deep'],
  ])('%s is 400 naming %s', async (query, field) => {
    expectClientError(await get(query), 'INVALID_QUERY', field);
  });

  it('a large but representable offset answers an empty page', async () => {
    expect((await get('page=1000000&limit=100').expect(200)).body.data).toEqual([]);
    expect((await get('offset=9007199254740991').expect(200)).body.data).toEqual([]);
  });
});

describe('keys named like Object.prototype members', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])('?filter[%s][_eq]=1 is 400 unknown field, never dropped', async (key) => {
    const response = await get(`filter[${key}][_eq]=1`);
    expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf'])('a filter on "%s" in a JSON body is 4xx, never dropped', async (key) => {
    const response = await t.request.delete('/items/things').set(auth()).send(JSON.parse(`{"query":{"filter":{"${key}":{"_eq":1}}}}`));
    expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect((await get('aggregate[count]=*').expect(200)).body.data).toEqual([{ count: 3 }]);
  });

  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])('an item body with "%s" is 4xx, never a TypeError', async (key) => {
    const created = await t.request.post('/items/things').set(auth()).send(JSON.parse(`{"title":"x","${key}":{"a":1}}`));
    expect(created.status, JSON.stringify(created.body)).toBeGreaterThanOrEqual(400);
    expect(created.status).toBeLessThan(500);
    const updated = await t.request.patch('/items/things/1').set(auth()).send(JSON.parse(`{"${key}":"x"}`));
    expect(updated.status, JSON.stringify(updated.body)).toBeGreaterThanOrEqual(400);
    expect(updated.status).toBeLessThan(500);
  });

  it.each(['constructor', 'toString', '__proto__'])('fields, sort, deep, groupBy and aggregate naming %s are 4xx', async (key) => {
    for (const query of [`fields=${key}`, `sort=${key}`, `deep[${key}][_limit]=1`, `groupBy=${key}`, `aggregate[${key}]=n`, `aggregate[sum]=${key}`]) {
      const response = await get(query);
      expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
  });
});
