import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 31, items 6 and 7: statuses and routes Directus clients (and Directus's own suite) rely on.
describe('Directus statuses and routes (issue 31)', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request
      .post('/collections')
      .set(auth(admin))
      .send({ collection: 'notes', fields: [{ field: 'title', type: 'string' }, { field: 'pin', type: 'string', meta: { special: ['conceal'] } }] })
      .expect(200);
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'site', meta: { singleton: true }, fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request.post('/items/notes').set(auth(admin)).send([{ title: 'mine', pin: '1234' }, { title: 'other' }]).expect(200);
    const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id as string;
    const permissions = [
      { collection: 'notes', action: 'read', fields: '*' },
      { collection: 'notes', action: 'update', fields: ['title'], permissions: { title: { _eq: 'mine' } } },
      { collection: 'site', action: 'create', fields: ['name'], presets: { name: 'Site' } },
    ];
    for (const permission of permissions) await t.request.post('/permissions').set(auth(admin)).send({ role, ...permission }).expect(200);
    await t.request.post('/users').set(auth(admin)).send({ email: 'editor@example.com', password: 'editor-password-31', role, status: 'active' }).expect(200);
    editor = await t.login('editor@example.com', 'editor-password-31');
  });
  afterAll(() => t.close());

  it('answers a filter comparing a concealed value with 400 naming the field; _null stays allowed', async () => {
    const refused = await t.request.get('/items/notes').query({ 'filter[pin][_eq]': '1234' }).set(auth(admin)).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'pin' });
    const found = await t.request.get('/items/notes').query({ 'filter[pin][_nnull]': 'true', fields: 'title' }).set(auth(admin)).expect(200);
    expect(found.body.data).toEqual([{ title: 'mine' }]);
  });

  it('answers POST /utils/cache/clear with 200 and an empty body, and GET /server/ping as text/html', async () => {
    const cleared = await t.request.post('/utils/cache/clear').set(auth(admin)).expect(200);
    expect(cleared.text).toBe('');
    const ping = await t.request.get('/server/ping').expect(200);
    expect(ping.headers['content-type']).toMatch(/^text\/html/);
    expect(ping.text).toBe('pong');
    const graphql = await t.request.post('/graphql/system').send({ query: '{ server_ping }' }).expect(200);
    expect(graphql.body).toEqual({ data: { server_ping: 'pong' } });
  });

  it('answers SEARCH with { keys } with those items, the query applied', async () => {
    const found = await t.request.search('/items/notes').set(auth(admin)).send({ keys: [2], query: { fields: ['title'] } }).expect(200);
    expect(found.body.data).toEqual([{ title: 'other' }]);
    const refused = await t.request.search('/items/notes').set(auth(admin)).send({ keys: 'x' }).expect(400);
    expect(refused.body.errors[0].extensions.field).toBe('keys');
  });

  it('answers GET /versions/:id with the version\'s delta, as Directus 11 does', async () => {
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'pages', meta: { versioning: true }, fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/items/pages').set(auth(admin)).send({ title: 'Main' }).expect(200);
    const id = (await t.request.post('/versions').set(auth(admin)).send({ key: 'draft', name: 'Draft', collection: 'pages', item: '1' }).expect(200)).body.data.id;
    await t.request.post(`/versions/${id}/save`).set(auth(admin)).send({ title: 'Changed' }).expect(200);
    const version = await t.request.get(`/versions/${id}`).set(auth(admin)).expect(200);
    expect(version.body.data).toMatchObject({ id, key: 'draft', collection: 'pages', item: '1', delta: { title: 'Changed' } });
    const narrow = await t.request.get(`/versions/${id}?fields=id,key`).set(auth(admin)).expect(200);
    expect(narrow.body.data).toEqual({ id, key: 'draft' });
  });

  it('creates the collections of an array in one call, and none when one of them is refused', async () => {
    const created = await t.request.post('/collections').set(auth(admin)).send([{ collection: 'first', meta: {}, schema: {} }, { collection: 'second', meta: {}, schema: {} }]).expect(200);
    expect(created.body.data.map((item: { collection: string }) => item.collection)).toEqual(['first', 'second']);
    await t.request.post('/collections').set(auth(admin)).send([{ collection: 'third', schema: {} }, { collection: 'first', schema: {} }]).expect(400);
    await t.request.get('/collections/third').set(auth(admin)).expect(403);
  });

  it('answers GET /permissions/me/:collection/:pk? with what the caller may do with that item', async () => {
    const asAdmin = await t.request.get('/permissions/me/notes/1').set(auth(admin)).expect(200);
    expect(asAdmin.body.data).toEqual({ update: { access: true }, delete: { access: true }, share: { access: true } });
    const mine = await t.request.get('/permissions/me/notes/1').set(auth(editor)).expect(200);
    expect(mine.body.data).toEqual({ update: { access: true }, delete: { access: false }, share: { access: false } });
    const other = await t.request.get('/permissions/me/notes/2').set(auth(editor)).expect(200);
    expect(other.body.data.update.access).toBe(false);
    // A singleton without its item is updated by creating it: the create permission decides and is described.
    const site = await t.request.get('/permissions/me/site').set(auth(editor)).expect(200);
    expect(site.body.data).toEqual({ update: { access: true, presets: { name: 'Site' }, fields: ['name'] }, delete: { access: false }, share: { access: false } });
    await t.request.get('/permissions/me/notes/1').expect(403);
  });
});
