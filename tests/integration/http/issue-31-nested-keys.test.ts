import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 31, class 3: a nested object carrying a primary key no item has yet creates that item with the
// key (as Directus does), when the caller may create in its collection; an existing key still updates.
describe('nested creates with a client-chosen primary key (issue 31)', () => {
  let t: TestApp;
  let admin: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const stringKey = { field: 'id', type: 'string', schema: { is_primary_key: true, has_auto_increment: false } };

  async function userWithRole(name: string, permissions: object[]): Promise<string> {
    const role = (await t.request.post('/roles').set(auth(admin)).send({ name, app_access: true }).expect(200)).body.data.id as string;
    for (const permission of permissions) await t.request.post('/permissions').set(auth(admin)).send({ role, fields: '*', ...permission }).expect(200);
    const email = `${name.toLowerCase()}@example.com`;
    await t.request.post('/users').set(auth(admin)).send({ email, password: 'nested-keys-password-1', role, status: 'active' }).expect(200);
    return t.login(email, 'nested-keys-password-1');
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    const create = (collection: string, fields: object[]) => t.request.post('/collections').set(auth(admin)).send({ collection, fields }).expect(200);
    await create('countries', [stringKey, { field: 'name', type: 'string' }]);
    await create('states', [stringKey, { field: 'name', type: 'string' }, { field: 'country', type: 'string' }]);
    await create('regions', [{ field: 'name', type: 'string' }]);
    await create('towns', [{ field: 'name', type: 'string' }, { field: 'region', type: 'integer' }]);
    const relate = (body: object) => t.request.post('/relations').set(auth(admin)).send(body).expect(200);
    await relate({ collection: 'states', field: 'country', related_collection: 'countries', meta: { one_field: 'states' } });
    await relate({ collection: 'towns', field: 'region', related_collection: 'regions', meta: { one_field: 'towns' } });
  });
  afterAll(() => t.close());

  it('creates a many-to-one item under the string key it is given, and updates it once it exists', async () => {
    const state = (await t.request.post('/items/states?fields=id,country.id,country.name').set(auth(admin)).send({ id: 's1', name: 'One', country: { id: 'c-new', name: 'New' } }).expect(200)).body.data;
    expect(state).toEqual({ id: 's1', country: { id: 'c-new', name: 'New' } });
    await t.request.post('/items/states').set(auth(admin)).send({ id: 's2', country: { id: 'c-new', name: 'Renamed' } }).expect(200);
    const countries = (await t.request.get('/items/countries?fields=id,name').set(auth(admin)).expect(200)).body.data;
    expect(countries).toEqual([{ id: 'c-new', name: 'Renamed' }]);
  });

  it('creates one-to-many children under the keys they are given', async () => {
    const country = (await t.request.post('/items/countries?fields=id,states.id,states.name').set(auth(admin)).send({ id: 'c2', states: [{ id: 's-new', name: 'Fresh' }] }).expect(200)).body.data;
    expect(country).toEqual({ id: 'c2', states: [{ id: 's-new', name: 'Fresh' }] });
  });

  it('creates items under client-chosen integer keys and moves the key sequence past them', async () => {
    const town = (await t.request.post('/items/towns?fields=id,region.id').set(auth(admin)).send({ id: 7000, name: 'T', region: { id: 5000, name: 'R' } }).expect(200)).body.data;
    expect(town).toEqual({ id: 7000, region: { id: 5000 } });
    const region = (await t.request.post('/items/regions?fields=id,towns.id').set(auth(admin)).send({ name: 'next', towns: [{ id: 8000, name: 'U' }] }).expect(200)).body.data;
    expect(region).toEqual({ id: 5001, towns: [{ id: 8000 }] });
    const next = (await t.request.post('/items/towns').set(auth(admin)).send({ name: 'auto' }).expect(200)).body.data;
    expect(next.id).toBe(8001);
  });

  it('creates only for a caller who may create in the related collection', async () => {
    const limited = await userWithRole('Limited', [{ collection: 'states', action: 'create' }, { collection: 'countries', action: 'read' }]);
    await t.request.post('/items/states').set(auth(limited)).send({ id: 's3', country: { id: 'c-forbidden', name: 'No' } }).expect(403);
    const creator = await userWithRole('Creator', [{ collection: 'states', action: 'create' }, { collection: 'countries', action: 'create' }]);
    await t.request.post('/items/states').set(auth(creator)).send({ id: 's4', country: { id: 'c-allowed', name: 'Yes' } }).expect(204);
    const countries = (await t.request.get('/items/countries?fields=id&sort=id').set(auth(admin)).expect(200)).body.data.map((item: { id: string }) => item.id);
    expect(countries).toEqual(['c-allowed', 'c-new', 'c2']);
  });
});
