import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('/utils', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth()).send({ collection: 'slides', fields: [{ field: 'title', type: 'string' }, { field: 'position', type: 'integer' }] }).expect(200);
    await t.request.patch('/collections/slides').set(auth()).send({ meta: { sort_field: 'position' } }).expect(200);
  });
  afterAll(() => t.close());

  it('generates random strings of the asked length', async () => {
    const fallback = await t.request.get('/utils/random/string').expect(200);
    expect(fallback.body.data).toMatch(/^[A-Za-z0-9]{32}$/);
    const short = await t.request.get('/utils/random/string?length=8').expect(200);
    expect(short.body.data).toHaveLength(8);
    await t.request.get('/utils/random/string?length=9999').expect(400);
    await t.request.get('/utils/random/string?length=abc').expect(400);
  });

  it('generates and verifies argon2id hashes', async () => {
    const generated = await t.request.post('/utils/hash/generate').send({ string: 'secret words' }).expect(200);
    expect(generated.body.data).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(generated.body.data, 'secret words')).toBe(true);
    expect((await t.request.post('/utils/hash/verify').send({ string: 'secret words', hash: generated.body.data }).expect(200)).body.data).toBe(true);
    expect((await t.request.post('/utils/hash/verify').send({ string: 'other', hash: generated.body.data }).expect(200)).body.data).toBe(false);
    const missing = await t.request.post('/utils/hash/generate').send({}).expect(400);
    expect(missing.body.errors[0].extensions.field).toBe('string');
  });

  it('moves an item in the manual sort order, numbering unsorted items first', async () => {
    const created = await t.request.post('/items/slides').set(auth()).send(['a', 'b', 'c', 'd'].map((title) => ({ title }))).expect(200);
    const ids = created.body.data.map((slide: { id: number }) => slide.id);
    await t.request.post('/utils/sort/slides').set(auth()).send({ item: ids[3], to: ids[0] }).expect(204);
    const order = async () => (await t.request.get('/items/slides?sort=position&fields=title').set(auth())).body.data.map((s: { title: string }) => s.title);
    expect(await order()).toEqual(['d', 'a', 'b', 'c']);
    // Moving down takes the target's place; the items in between move up one.
    await t.request.post('/utils/sort/slides').set(auth()).send({ item: ids[3], to: ids[2] }).expect(204);
    expect(await order()).toEqual(['a', 'b', 'c', 'd']);
    await t.request.post('/utils/sort/slides').set(auth()).send({ item: ids[2], to: ids[1] }).expect(204);
    expect(await order()).toEqual(['a', 'c', 'b', 'd']);
    await t.request.post('/utils/sort/slides').set(auth()).send({ item: ids[0], to: 999_999 }).expect(403);
    await t.request.post('/utils/sort/slides').send({ item: ids[0], to: ids[1] }).expect(403);
  });

  it('refuses to sort a collection without a sort field', async () => {
    await t.request.post('/collections').set(auth()).send({ collection: 'plain', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    const response = await t.request.post('/utils/sort/plain').set(auth()).send({ item: 1, to: 2 }).expect(400);
    expect(response.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
  });

  it('reverts an item to a revision, recording the revert as a new revision', async () => {
    const created = await t.request.post('/items/slides').set(auth()).send({ title: 'Original' }).expect(200);
    const id = created.body.data.id;
    await t.request.patch(`/items/slides/${id}`).set(auth()).send({ title: 'Changed' }).expect(200);
    const revisions = await t.request.get(`/revisions?filter[collection][_eq]=slides&filter[item][_eq]=${id}&sort=id&fields=id`).set(auth()).expect(200);
    const [first] = revisions.body.data;
    await t.request.post(`/utils/revert/${first.id}`).set(auth()).expect(204);
    expect((await t.request.get(`/items/slides/${id}`).set(auth())).body.data.title).toBe('Original');
    const after = await t.request.get(`/revisions?filter[collection][_eq]=slides&filter[item][_eq]=${id}&aggregate[count]=*`).set(auth());
    expect(after.body.data).toEqual([{ count: 3 }]);
    await t.request.post('/utils/revert/999999').set(auth()).expect(403);
    await t.request.post(`/utils/revert/${first.id}`).expect(403);
  });
});
