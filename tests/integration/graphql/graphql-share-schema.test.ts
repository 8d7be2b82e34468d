import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * docs/graphql.md: share sessions get an uncached schema. A share's schema has only what the share reaches;
 * kept under its role, it would be handed to the role's users, or theirs to the share (issue 37 item 6).
 */
let t: TestApp;
let shareToken: string;
let userToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const admin = { Authorization: `Bearer ${await t.login()}` };
  const send = async (path: string, body: object) => (await t.request.post(path).set(admin).send(body).expect(200)).body.data;
  await send('/collections', { collection: 'articles', fields: [{ field: 'title', type: 'string' }] });
  await send('/collections', { collection: 'secrets', fields: [{ field: 'value', type: 'string' }] });
  await send('/items/articles', { title: 'Shared' });
  await send('/items/secrets', { value: 'kept from the share' });
  const role = (await send('/roles', { name: 'Reader', app_access: false })).id;
  for (const collection of ['articles', 'secrets']) await send('/permissions', { role, collection, action: 'read', fields: '*' });
  await send('/users', { email: 'reader@example.com', password: 'reader-password-1', role, status: 'active' });
  userToken = await t.login('reader@example.com', 'reader-password-1');
  const share = (await send('/shares', { collection: 'articles', item: '1', role })).id;
  shareToken = (await t.request.post('/shares/auth').send({ share }).expect(200)).body.data.access_token;
});
afterAll(() => t.close());

const rootFields = async (token: string) => {
  const response = await t.request.post('/graphql').set({ Authorization: `Bearer ${token}` }).send({ query: '{ __schema { queryType { fields { name } } } }' }).expect(200);
  return (response.body.data.__schema.queryType.fields as Array<{ name: string }>).map((field) => field.name);
};

it("builds a share session's schema for the share alone: its role's users never get it, nor it theirs", async () => {
  // The share first: a schema kept under the role would then be the user's.
  const shared = await rootFields(shareToken);
  expect(shared).toContain('articles');
  expect(shared).not.toContain('secrets');
  expect(await rootFields(userToken)).toEqual(expect.arrayContaining(['articles', 'secrets']));
  // And the other way round: the user's schema, now built and kept for the role, is not the share's.
  expect(await rootFields(shareToken)).not.toContain('secrets');
});
