import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Directus compatibility: lenient field and collection descriptors, strict item data, alias fields. */
describe('Directus descriptors and fields', () => {
  let t: TestApp;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('ignores schema and meta keys Directus ignores (schema.length on a uuid, read-back keys, meta.id)', async () => {
    await t.request
      .post('/collections')
      .set(auth())
      .send({
        collection: 'orders',
        meta: { collection: 'orders', system: false, icon: 'box', unknown_setting: 1 },
        schema: { name: 'orders', comment: null, schema: 'public', sql: 'x' },
        fields: [
          { field: 'id', type: 'uuid', meta: { id: 7, system: false, special: ['uuid'] }, schema: { is_primary_key: true, length: 36, data_type: 'uuid', table: 'orders' } },
          { field: 'total', type: 'string', schema: { max_length: 20, foreign_key_table: null, foreign_key_column: null, is_generated: false, comment: 'x' } },
        ],
      })
      .expect(200);
    const created = await t.request
      .post('/fields/orders')
      .set(auth())
      .send({ field: 'ref', type: 'uuid', schema: { length: 36, numeric_precision: null, generation_expression: null }, meta: { id: 99, system: true, collection: 'other' } })
      .expect(200);
    expect(created.body.data).toMatchObject({ collection: 'orders', field: 'ref', type: 'uuid', meta: { collection: 'orders', field: 'ref' } });
    expect(created.body.data.meta.id).not.toBe(99);
    await t.request.patch('/fields/orders/total').set(auth()).send({ schema: { length: 30, max_length: 40 }, meta: { system: false, note: 'n' } }).expect(200);
    const total = await t.request.get('/fields/orders/total').set(auth()).expect(200);
    expect(total.body.data).toMatchObject({ schema: { max_length: 40 }, meta: { note: 'n' } });
    await t.request.patch('/collections/orders').set(auth()).send({ meta: { note: 'Orders', singular: 'x' } }).expect(200);
  });

  it('still validates the keys it knows (bad values are 400 naming the field)', async () => {
    const response = await t.request.post('/fields/orders').set(auth()).send({ field: 'bad', type: 'string', schema: { max_length: 'long', length: 3 } }).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'schema.max_length' });
  });

  it('stores numbers written to string and text fields as their text; item payloads stay strict', async () => {
    await t.request.post('/fields/orders').set(auth()).send({ field: 'notes', type: 'text' }).expect(200);
    const created = await t.request.post('/items/orders').set(auth()).send({ total: 40, notes: 1.5 }).expect(200);
    expect(created.body.data).toMatchObject({ total: '40', notes: '1.5' });
    const unknown = await t.request.post('/items/orders').set(auth()).send({ total: '1', nope: 1 }).expect(400);
    expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'nope' });
    const object = await t.request.post('/items/orders').set(auth()).send({ total: { a: 1 } }).expect(400);
    expect(object.body.errors[0].extensions).toMatchObject({ field: 'total' });
  });

  it('accepts POST /users with `name` (a Directus-only key) without storing it', async () => {
    const response = await t.request.post('/users').set(auth()).send({ email: 'named@example.com', password: 'named-password-1', name: 'Named User' }).expect(200);
    expect(response.body.data).toMatchObject({ email: 'named@example.com' });
    expect(response.body.data).not.toHaveProperty('name');
  });

  it('creates presentation fields with the alias special (no column)', async () => {
    const response = await t.request
      .post('/fields/orders')
      .set(auth())
      .send({ field: 'divider', type: 'alias', meta: { special: ['alias', 'no-data'], interface: 'presentation-divider' }, schema: null })
      .expect(200);
    expect(response.body.data).toMatchObject({ type: 'alias', schema: null, meta: { special: ['alias', 'no-data'] } });
    const item = await t.request.post('/items/orders').set(auth()).send({ total: 'x' }).expect(200);
    expect(item.body.data).not.toHaveProperty('divider');
  });

  it('accepts re-creating the o2m alias a relation already made, as an update of its meta', async () => {
    await t.request.post('/collections').set(auth()).send({ collection: 'authors', fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request.post('/fields/orders').set(auth()).send({ field: 'author', type: 'integer' }).expect(200);
    await t.request
      .post('/relations')
      .set(auth())
      .send({ collection: 'orders', field: 'author', related_collection: 'authors', meta: { one_field: 'orders' } })
      .expect(200);
    const again = await t.request
      .post('/fields/authors')
      .set(auth())
      .send({ field: 'orders', type: 'alias', meta: { special: ['o2m'], interface: 'list-o2m', note: 'their orders' } })
      .expect(200);
    expect(again.body.data).toMatchObject({ field: 'orders', type: 'alias', meta: { special: ['o2m'], note: 'their orders' } });
    const duplicate = await t.request.post('/fields/authors').set(auth()).send({ field: 'name', type: 'string' }).expect(400);
    expect(duplicate.body.errors[0].extensions.field).toBe('field');
  });

  it('leaves date_updated null on create and sets it on update', async () => {
    await t.request.post('/fields/orders').set(auth()).send({ field: 'date_updated', type: 'timestamp', meta: { special: ['date-updated'] } }).expect(200);
    await t.request.post('/fields/orders').set(auth()).send({ field: 'date_created', type: 'timestamp', meta: { special: ['date-created'] } }).expect(200);
    const created = await t.request.post('/items/orders').set(auth()).send({ total: 'y' }).expect(200);
    expect(created.body.data.date_updated).toBeNull();
    expect(created.body.data.date_created).toEqual(expect.any(String));
    const updated = await t.request.patch(`/items/orders/${created.body.data.id}`).set(auth()).send({ total: 'z' }).expect(200);
    expect(updated.body.data.date_updated).toEqual(expect.any(String));
  });
});
