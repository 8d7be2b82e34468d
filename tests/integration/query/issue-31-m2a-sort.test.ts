import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 31, item 5: sorting through a many-to-any field, `children.item:<collection>.<field>` (plain and with
// functions), as Directus's routes/items/m2a suite does.
describe('sort through many-to-any items (issue 31)', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    const collections: Array<[string, object[]]> = [
      ['shapes', [{ field: 'name', type: 'string' }]],
      ['circles', [{ field: 'name', type: 'string' }, { field: 'drawn', type: 'dateTime' }]],
      ['squares', [{ field: 'name', type: 'string' }]],
      ['shapes_children', [{ field: 'shapes_id', type: 'integer' }, { field: 'item', type: 'string' }, { field: 'collection', type: 'string' }]],
    ];
    for (const [collection, fields] of collections) await t.request.post('/collections').set(auth(admin)).send({ collection, fields }).expect(200);
    const relate = (body: object) => t.request.post('/relations').set(auth(admin)).send(body).expect(200);
    await relate({ collection: 'shapes_children', field: 'item', related_collection: null, meta: { one_collection_field: 'collection', one_allowed_collections: ['circles', 'squares'], junction_field: 'shapes_id' } });
    await relate({ collection: 'shapes_children', field: 'shapes_id', related_collection: 'shapes', meta: { one_field: 'children', junction_field: 'item' }, schema: { on_delete: 'CASCADE' } });
    // Created in the order 4, 2, 3, 5, 1 so that neither the key nor the creation order gives the sorted order.
    for (const n of [4, 2, 3, 5, 1]) {
      await t.request
        .post('/items/shapes')
        .set(auth(admin))
        .send({ name: `shape-${n}`, children: [{ collection: 'circles', item: { name: `circle-${n}`, drawn: `202${n}-06-01T10:00:00` } }, { collection: 'squares', item: { name: `square-${6 - n}` } }] })
        .expect(200);
    }
    await t.request.post('/items/shapes').set(auth(admin)).send({ name: 'shape-none', children: [{ collection: 'squares', item: { name: 'square-9' } }] }).expect(200);
    const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Reader' }).expect(200)).body.data.id as string;
    const permissions = [
      { collection: 'shapes', action: 'read', fields: '*' },
      { collection: 'shapes_children', action: 'read', fields: '*' },
      { collection: 'circles', action: 'read', fields: '*', permissions: { name: { _nin: ['circle-1', 'circle-2'] } } },
      { collection: 'squares', action: 'read', fields: '*' },
    ];
    for (const permission of permissions) await t.request.post('/permissions').set(auth(admin)).send({ role, ...permission }).expect(200);
    await t.request.post('/users').set(auth(admin)).send({ email: 'reader@example.com', password: 'reader-password-31', role, status: 'active' }).expect(200);
    reader = await t.login('reader@example.com', 'reader-password-31');
  });
  afterAll(() => t.close());

  const names = async (query: Record<string, string | number>, token = admin) =>
    ((await t.request.get('/items/shapes').query({ fields: 'name', filter: JSON.stringify({ name: { _starts_with: 'shape-' } }), ...query }).set(auth(token)).expect(200)).body.data as Array<{ name: string }>).map((shape) => shape.name);

  it('sorts parents by a field of the many-to-any item of one collection, both ways, with limits', async () => {
    expect(await names({ sort: 'children.item:circles.name' })).toEqual(['shape-1', 'shape-2', 'shape-3', 'shape-4', 'shape-5', 'shape-none']);
    expect(await names({ sort: '-children.item:circles.name' })).toEqual(['shape-none', 'shape-5', 'shape-4', 'shape-3', 'shape-2', 'shape-1']);
    expect(await names({ sort: 'children.item:squares.name', limit: 3 })).toEqual(['shape-5', 'shape-4', 'shape-3']);
    expect(await names({ sort: '-children.item:circles.name', limit: 2, filter: JSON.stringify({ children: { _some: { collection: { _eq: 'circles' } } } }) })).toEqual(['shape-5', 'shape-4']);
  });

  it('sorts by a function of the many-to-any item\'s field', async () => {
    expect(await names({ sort: 'children.item:circles.year(drawn)', limit: 3 })).toEqual(['shape-1', 'shape-2', 'shape-3']);
    expect(await names({ sort: '-children.item:circles.year(drawn)', limit: 3, filter: JSON.stringify({ name: { _neq: 'shape-none' } }) })).toEqual(['shape-5', 'shape-4', 'shape-3']);
  });

  it('ranks by the items the caller may read: the others sort as no value', async () => {
    // Ties (no readable circle) keep the key order: shape-2, shape-1, shape-none were created in that order.
    expect(await names({ sort: 'children.item:circles.name' }, reader)).toEqual(['shape-3', 'shape-4', 'shape-5', 'shape-2', 'shape-1', 'shape-none']);
  });

  it('refuses a scope on a field that is not many-to-any, an unknown collection, or a scope without a field, naming the field', async () => {
    for (const sort of ['children.shapes_id:circles.name', 'children.item:members.name', 'children.item:circles', 'children.item.name']) {
      const response = await t.request.get('/items/shapes').query({ sort }).set(auth(admin)).expect(400);
      expect(response.body.errors[0].extensions.code, sort).toBe('INVALID_QUERY');
      expect(response.body.errors[0].message, sort).toContain(sort);
    }
    const unknown = await t.request.get('/items/shapes').query({ sort: 'children.item:members.name' }).set(auth(admin)).expect(400);
    expect(unknown.body.errors[0].extensions.field).toBe('item');
  });
});
