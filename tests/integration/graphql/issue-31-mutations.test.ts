import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Issue 31 item 2: singletons read and update as one object, and update_<c>_batch, as Directus's GraphQL has them. */
let t: TestApp;
let admin: string;
const auth = () => ({ Authorization: `Bearer ${admin}` });
const gql = (query: string) => t.request.post('/graphql').set(auth()).send({ query });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'home', meta: { singleton: true }, fields: [{ field: 'headline', type: 'string' }] }).expect(200);
  await t.request.post('/collections').set(auth()).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }] }).expect(200);
  await t.request.post('/items/notes').set(auth()).send([{ text: 'one' }, { text: 'two' }, { text: 'three' }]).expect(200);
});
afterAll(() => t.close());

describe('singletons', () => {
  it('read as their one item (null before it is saved) and update with update_<c>, creating it the first time', async () => {
    const before = await gql('{ home { headline } }').expect(200);
    expect(before.body).toEqual({ data: { home: null } });
    const created = await gql('mutation { update_home(data: { headline: "Hello" }) { headline } }').expect(200);
    expect(created.body).toEqual({ data: { update_home: { headline: 'Hello' } } });
    const updated = await gql('mutation { update_home(data: { headline: "Again" }) { id headline } }').expect(200);
    expect(updated.body.data.update_home).toEqual({ id: expect.any(String), headline: 'Again' });
    const read = await gql('{ home { headline } }').expect(200);
    expect(read.body).toEqual({ data: { home: { headline: 'Again' } } });
    expect((await t.request.get('/items/home').set(auth()).expect(200)).body.data.headline).toBe('Again');
  });

  it('take no list arguments and have no by-id, create or delete fields', async () => {
    const filtered = await gql('{ home(filter: { id: { _eq: 1 } }) { headline } }');
    expect(filtered.status).toBe(400);
    expect(filtered.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION');
    const sdl = (await t.request.get('/server/specs/graphql').set(auth()).expect(200)).text;
    expect(sdl).toContain('home: home');
    expect(sdl).not.toContain('home_by_id');
    expect(sdl).not.toContain('create_home_item');
    expect(sdl).not.toContain('delete_home_item');
  });
});

describe('update_<c>_batch', () => {
  it('updates each item by its own key in one transaction and reads them back', async () => {
    const ids = (await t.request.get('/items/notes?sort=id&fields=id').set(auth()).expect(200)).body.data.map((note: { id: number }) => note.id);
    const response = await gql(`mutation { update_notes_batch(data: [{ id: ${ids[0]}, text: "uno" }, { id: ${ids[2]}, text: "tres" }]) { id text } }`).expect(200);
    expect(response.body).toEqual({ data: { update_notes_batch: [{ id: String(ids[0]), text: 'uno' }, { id: String(ids[2]), text: 'tres' }] } });
    const after = (await t.request.get('/items/notes?sort=id&fields=text').set(auth()).expect(200)).body.data;
    expect(after).toEqual([{ text: 'uno' }, { text: 'two' }, { text: 'tres' }]);
  });

  it('writes nothing when one item fails', async () => {
    const ids = (await t.request.get('/items/notes?sort=id&fields=id').set(auth()).expect(200)).body.data.map((note: { id: number }) => note.id);
    const response = await gql(`mutation { update_notes_batch(data: [{ id: ${ids[1]}, text: "dos" }, { text: "no key" }]) { id } }`);
    expect(response.body.errors[0].extensions.code).toMatch(/INVALID_PAYLOAD|FORBIDDEN/);
    const after = (await t.request.get('/items/notes?sort=id&fields=text').set(auth()).expect(200)).body.data;
    expect(after[1]).toEqual({ text: 'two' });
  });
});
