import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// PATCH /fields/:collection: the data model's drag-and-drop saves a new field order in one request.
describe('PATCH /fields/:collection (field order)', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });
  type Field = { field: string; meta: { sort: number | null } };
  const sorts = (fields: Field[]) => Object.fromEntries(fields.map((field) => [field.field, field.meta.sort]));
  const order = async () => sorts((await t.request.get('/fields/posts').set(auth()).expect(200)).body.data);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth()).send({ collection: 'posts', fields: [{ field: 'title', type: 'string' }, { field: 'body', type: 'text' }] }).expect(200);
  });
  afterAll(() => t.close());

  it('writes meta.sort of several fields at once (the admin reorder) and answers them', async () => {
    const response = await t.request
      .patch('/fields/posts')
      .set(auth())
      .send([
        { field: 'body', meta: { sort: 1 } },
        { field: 'title', meta: { sort: 2 } },
        { field: 'id', meta: { sort: 3 } },
      ])
      .expect(200);
    expect(sorts(response.body.data)).toEqual({ body: 1, title: 2, id: 3 });
    expect(await order()).toEqual({ body: 1, title: 2, id: 3 });
  });

  it('writes nothing when one entry is wrong, and names it', async () => {
    const bad = await t.request.patch('/fields/posts').set(auth()).send([{ field: 'title', meta: { sort: 9 } }, { field: 'body', meta: { sort: 'first' } }]).expect(400);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD' });
    expect(bad.body.errors[0].message).toMatch(/sort/);
    const unknown = await t.request.patch('/fields/posts').set(auth()).send([{ field: 'title', meta: { sort: 9 } }, { field: 'nope', meta: { sort: 1 } }]);
    expect(unknown.status).toBe(403);
    await t.request.patch('/fields/posts').set(auth()).send({ field: 'title' }).expect(400);
    expect(await order()).toEqual({ body: 1, title: 2, id: 3 });
  });

  it('is for administrators only', async () => {
    await t.request.patch('/fields/posts').send([{ field: 'title', meta: { sort: 1 } }]).expect(403);
  });
});
