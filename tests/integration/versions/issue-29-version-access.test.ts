import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Issue 29 items 1 and 4: every answer that carries a version's item data is cut to the caller's readable
 * fields (nested related items and concealed values included), and creating a version needs the right to
 * update the item.
 */
describe('content versions and the caller’s permissions', () => {
  let t: TestApp;
  let admin: string;
  let p: string;
  let q: string;
  let readOnly: string;
  let version: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const send = (path: string, body: object) => t.request.post(path).set(auth(admin)).send(body).expect(200);
  /** What user q must never see: the field's name, its value, the related item's hidden value, the plain pin. */
  const SECRETS = /secret_note|p only|555-SECRET|phone|plain-pin-4321/;

  async function userWithRole(name: string, permissions: object[]): Promise<string> {
    const role = (await send('/roles', { name, app_access: false })).body.data.id as string;
    for (const permission of permissions) await send('/permissions', { role, ...permission });
    const email = `${name.toLowerCase().replace(/\W/g, '')}@example.com`;
    await send('/users', { email, password: 'versions-password-1', role, status: 'active' });
    return t.login(email, 'versions-password-1');
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await send('/collections', { collection: 'people', fields: [{ field: 'name', type: 'string' }, { field: 'phone', type: 'string' }] });
    await send('/collections', {
      collection: 'notes',
      meta: { versioning: true },
      fields: [{ field: 'title', type: 'string' }, { field: 'secret_note', type: 'string' }, { field: 'author', type: 'integer' }, { field: 'pin', type: 'hash', meta: { special: ['hash', 'conceal'] } }],
    });
    await send('/relations', { collection: 'notes', field: 'author', related_collection: 'people' });
    await send('/items/people', { name: 'Ada', phone: '555-0100' });
    await send('/items/notes', [{ title: 'Shared', secret_note: 'main secret', author: 1 }, { title: 'Other', author: 1 }]);
    const everything = (collection: string) => ['read', 'update'].map((action) => ({ collection, action, fields: '*' }));
    p = await userWithRole('Writer P', [...everything('notes'), ...everything('people'), { collection: 'tessera_revisions', action: 'read', fields: '*' }]);
    // q reads notes and people, but not notes.secret_note, notes.pin or people.phone; updates titles only.
    q = await userWithRole('Reader Q', [
      { collection: 'notes', action: 'read', fields: ['id', 'title', 'author'] },
      { collection: 'notes', action: 'update', fields: ['title'] },
      { collection: 'people', action: 'read', fields: ['id', 'name'] },
      { collection: 'tessera_revisions', action: 'read', fields: '*' },
      { collection: 'tessera_versions', action: 'read', fields: '*' },
    ]);
    readOnly = await userWithRole('Read Only', [{ collection: 'notes', action: 'read', fields: '*' }]);
    version = (await t.request.post('/versions').set(auth(p)).send({ key: 'draft', collection: 'notes', item: 1 }).expect(200)).body.data.id;
    await t.request
      .post(`/versions/${version}/save`)
      .set(auth(p))
      .send({ title: 'Reworded', secret_note: 'p only', pin: 'plain-pin-4321', author: { id: 1, name: 'Ada L.', phone: '555-SECRET' } })
      .expect(200);
  });
  afterAll(() => t.close());

  it('q sees the version without the fields it may not read, in compare, save, ?version= reads and revisions', async () => {
    const compared = (await t.request.get(`/versions/${version}/compare`).set(auth(q)).expect(200)).body.data;
    expect(compared.current).toEqual({ title: 'Reworded', author: { id: 1, name: 'Ada L.' } });
    expect(compared.main).toEqual({ id: 1, title: 'Shared', author: 1 });
    expect(JSON.stringify(compared)).not.toMatch(SECRETS);

    const saved = (await t.request.post(`/versions/${version}/save`).set(auth(q)).send({ title: 'Reworded by q' }).expect(200)).body.data;
    expect(saved).toEqual({ id: 1, title: 'Reworded by q', author: { id: 1, name: 'Ada L.' } });

    for (const fields of ['*', '*,author.*', 'id,title,author.name']) {
      const read = (await t.request.get(`/items/notes/1?version=draft&fields=${fields}`).set(auth(q)).expect(200)).body.data;
      expect(JSON.stringify(read)).not.toMatch(SECRETS);
      expect(read.title).toBe('Reworded by q');
    }
    expect((await t.request.get('/items/notes/1?version=draft&fields=id,author.*').set(auth(q)).expect(200)).body.data).toEqual({ id: 1, author: { id: 1, name: 'Ada L.' } });

    const revisions = (await t.request.get(`/revisions?filter[version][_eq]=${version}&fields=data,delta`).set(auth(q)).expect(200)).body.data;
    expect(revisions).toHaveLength(2);
    expect(JSON.stringify(revisions)).not.toMatch(SECRETS);
    const versions = (await t.request.get('/versions?fields=*').set(auth(q)).expect(200)).body.data;
    expect(versions).toHaveLength(1);
    expect(JSON.stringify(versions)).not.toMatch(SECRETS);

    // A picked field q cannot see is not a change it can name.
    const picked = await t.request.post(`/versions/${version}/promote`).set(auth(q)).send({ fields: ['secret_note'] }).expect(400);
    expect(picked.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'fields' });
  });

  it('p, who may read everything, sees every change, with the concealed value still masked', async () => {
    const compared = (await t.request.get(`/versions/${version}/compare`).set(auth(p)).expect(200)).body.data;
    expect(compared.current).toEqual({ title: 'Reworded by q', secret_note: 'p only', pin: '**********', author: { id: 1, name: 'Ada L.', phone: '555-SECRET' } });
    const read = (await t.request.get('/items/notes/1?version=draft&fields=secret_note,pin,author.phone').set(auth(p)).expect(200)).body.data;
    expect(read).toEqual({ secret_note: 'p only', pin: '**********', author: { phone: '555-SECRET' } });
    const admins = (await t.request.get(`/versions/${version}/compare`).set(auth(admin)).expect(200)).body.data;
    expect(admins.current.pin).toBe('**********');
  });

  it('creating a version needs the right to update the item: the public and read-only roles get 403 and nothing is stored', async () => {
    await send('/permissions', { role: null, collection: 'notes', action: 'read', fields: '*' });
    // The public can read the item, so this is about the missing update right, not visibility.
    await t.request.get('/items/notes/2').expect(200);
    const anonymous = await t.request.post('/versions').send({ key: 'squat', collection: 'notes', item: 2 }).expect(403);
    expect(anonymous.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const reader = await t.request.post('/versions').set(auth(readOnly)).send({ key: 'squat', collection: 'notes', item: '2' }).expect(403);
    expect(reader.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await t.system.db.selectFrom('tessera_versions').select('id').where('key', '=', 'squat').execute()).toEqual([]);
    // The owner's key is still free; q, who may update titles, may make a version too.
    await t.request.post('/versions').set(auth(p)).send({ key: 'squat', collection: 'notes', item: 2 }).expect(200);
    await t.request.post('/versions').set(auth(q)).send({ key: 'q-draft', collection: 'notes', item: 2 }).expect(200);
  });
});
