import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 31, class 1: a csv field follows `meta.special` exactly, as in Directus. Only `cast-csv` splits the
// stored comma-joined text into a list; Directus's own suite creates `{type: 'csv', meta: {}}` fields and
// reads and filters them as strings.
describe('csv fields follow meta.special (issue 31)', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth()).send({ collection: 'posts', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/fields/posts').set(auth()).send({ field: 'plain', type: 'csv', meta: {}, schema: {} }).expect(200);
    await t.request.post('/fields/posts').set(auth()).send({ field: 'listed', type: 'csv', meta: { special: ['cast-csv'] } }).expect(200);
  });
  afterAll(() => t.close());

  it('keeps a csv field without cast-csv a text field: no special added, the joined string stored and returned', async () => {
    const field = (await t.request.get('/fields/posts/plain').set(auth()).expect(200)).body.data;
    expect(field).toMatchObject({ type: 'text', meta: { special: null }, schema: { data_type: 'text' } });
    const created = (await t.request.post('/items/posts').set(auth()).send({ title: 'one', plain: 'red,green', listed: 'red,green' }).expect(200)).body.data;
    expect(created).toMatchObject({ plain: 'red,green', listed: ['red', 'green'] });
    const read = (await t.request.get(`/items/posts/${created.id}`).set(auth()).expect(200)).body.data;
    expect(read).toMatchObject({ plain: 'red,green', listed: ['red', 'green'] });
  });

  it('filters the string field with string operators', async () => {
    await t.request.post('/items/posts').set(auth()).send({ title: 'two', plain: 'blue' }).expect(200);
    const found = (await t.request.get('/items/posts').query({ 'filter[plain][_contains]': 'een', fields: 'title' }).set(auth()).expect(200)).body.data;
    expect(found).toEqual([{ title: 'one' }]);
  });

  it('splits only with cast-csv: a list written to the cast-csv field comes back as a list', async () => {
    const created = (await t.request.post('/items/posts').set(auth()).send({ title: 'three', listed: ['a', 'b c'] }).expect(200)).body.data;
    expect(created.listed).toEqual(['a', 'b c']);
  });

  it('reads a snapshot file whose csv field has no cast-csv as the text field the database holds', async () => {
    const snapshot = (await t.request.get('/schema/snapshot').set(auth()).expect(200)).body.data;
    await t.request.post('/schema/diff').set(auth()).send(snapshot).expect(204);
    const plain = snapshot.fields.find((f: { collection: string; field: string }) => f.collection === 'posts' && f.field === 'plain');
    plain.type = 'csv';
    await t.request.post('/schema/diff').set(auth()).send(snapshot).expect(204);
    const listed = snapshot.fields.find((f: { collection: string; field: string }) => f.collection === 'posts' && f.field === 'listed');
    listed.meta.special = null;
    await t.request.post('/schema/diff').set(auth()).send(snapshot).expect(200);
  });
});
