import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Content versions (docs/versions.md): create, save → compare → promote, the main-hash check, ?version= reads, permissions. */
describe('content versions', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let outsider: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  async function userWithRole(name: string, email: string, permissions: object[]): Promise<string> {
    const role = (await t.request.post('/roles').set(auth(admin)).send({ name, app_access: true }).expect(200)).body.data.id as string;
    for (const permission of permissions) await t.request.post('/permissions').set(auth(admin)).send({ role, ...permission }).expect(200);
    await t.request.post('/users').set(auth(admin)).send({ email, password: 'versions-password-1', role, status: 'active' }).expect(200);
    return t.login(email, 'versions-password-1');
  }

  const createVersion = (token: string, body: object) => t.request.post('/versions').set(auth(token)).send(body);
  const title = async (id: number) => (await t.system.db.selectFrom('articles').select('title').where('id', '=', id).executeTakeFirstOrThrow()).title;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'authors', fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request
      .post('/collections')
      .set(auth(admin))
      .send({ collection: 'articles', meta: { versioning: true }, fields: [{ field: 'title', type: 'string' }, { field: 'body', type: 'text' }, { field: 'status', type: 'string' }, { field: 'author', type: 'integer' }] })
      .expect(200);
    await t.request.post('/relations').set(auth(admin)).send({ collection: 'articles', field: 'author', related_collection: 'authors' }).expect(200);
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'plain', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    await t.request.post('/items/authors').set(auth(admin)).send([{ name: 'Ada' }, { name: 'Grace' }]).expect(200);
    await t.request.post('/items/articles').set(auth(admin)).send([{ title: 'First', body: 'one', status: 'draft', author: 1 }, { title: 'Second', body: 'two', status: 'draft', author: 1 }, { title: 'Secret', status: 'hidden', author: 1 }]).expect(200);
    await t.request.post('/items/plain').set(auth(admin)).send({ title: 'x' }).expect(200);
    // Reads and updates articles except hidden ones, may not change "status", titles at most 20 characters.
    editor = await userWithRole('Editor', 'editor@example.com', [
      { collection: 'articles', action: 'read', fields: '*', permissions: { status: { _neq: 'hidden' } } },
      { collection: 'articles', action: 'update', fields: ['title', 'body', 'author'], permissions: { status: { _neq: 'hidden' } }, validation: { title: { _nnull: true } } },
      { collection: 'authors', action: 'read', fields: '*' },
    ]);
    outsider = await userWithRole('Outsider', 'outsider@example.com', [{ collection: 'authors', action: 'read', fields: '*' }]);
  });
  afterAll(() => t.close());

  describe('creating a version', () => {
    it('refuses a collection without versioning, a missing item, a bad or duplicate key with 400 naming the field', async () => {
      const off = await createVersion(admin, { key: 'draft', collection: 'plain', item: 1 }).expect(400);
      expect(off.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'collection' });
      const missing = await createVersion(admin, { key: 'draft', collection: 'articles', item: 999 }).expect(400);
      expect(missing.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'item' });
      const badKey = await createVersion(admin, { key: 'has space', collection: 'articles', item: 1 }).expect(400);
      expect(badKey.body.errors[0].extensions.field).toBe('key');
      const noKey = await createVersion(admin, { collection: 'articles', item: 1 }).expect(400);
      expect(noKey.body.errors[0].extensions.field).toBe('key');
      await createVersion(admin, { key: 'dup', name: 'Dup', collection: 'articles', item: 1 }).expect(200);
      const dup = await createVersion(admin, { key: 'dup', collection: 'articles', item: 1 }).expect(400);
      expect(dup.body.errors[0].extensions).toMatchObject({ code: 'RECORD_NOT_UNIQUE', field: 'key' });
      // The same key on another item is fine.
      await createVersion(admin, { key: 'dup', collection: 'articles', item: 2 }).expect(200);
    });
  });

  describe('save → compare → promote', () => {
    it('keeps changes out of the main item until promoted, in revisions pointing at the version', async () => {
      const created = await createVersion(editor, { key: 'rewrite', name: 'Rewrite', collection: 'articles', item: '1' }).expect(200);
      const id = created.body.data.id as string;
      expect(created.body.data).toMatchObject({ key: 'rewrite', name: 'Rewrite', collection: 'articles', item: '1' });
      expect(created.body.data.hash).toMatch(/^[0-9a-f]{40}$/);

      const saved = await t.request.post(`/versions/${id}/save`).set(auth(editor)).send({ title: 'First, rewritten' }).expect(200);
      expect(saved.body.data).toMatchObject({ id: 1, title: 'First, rewritten', body: 'one', author: 1 });
      await t.request.post(`/versions/${id}/save`).set(auth(editor)).send({ body: 'new body' }).expect(200);
      expect(await title(1)).toBe('First');
      const revisions = await t.system.db.selectFrom('tessera_revisions').select(['delta', 'item', 'collection']).where('version', '=', id).orderBy('id').execute();
      expect(revisions).toEqual([
        { delta: { title: 'First, rewritten' }, item: '1', collection: 'articles' },
        { delta: { body: 'new body' }, item: '1', collection: 'articles' },
      ]);

      const compared = await t.request.get(`/versions/${id}/compare`).set(auth(editor)).expect(200);
      expect(compared.body.data).toMatchObject({ outdated: false, mainHash: created.body.data.hash, current: { title: 'First, rewritten', body: 'new body' }, main: { id: 1, title: 'First', body: 'one' } });

      const promoted = await t.request.post(`/versions/${id}/promote`).set(auth(editor)).send({}).expect(200);
      expect(promoted.body.data).toBe(1);
      const main = (await t.request.get('/items/articles/1').set(auth(editor)).expect(200)).body.data;
      expect(main).toMatchObject({ title: 'First, rewritten', body: 'new body' });
      // The promotion went through the update: it is in the activity as an update of the item.
      const updates = await t.system.db.selectFrom('tessera_activity').select('action').where('collection', '=', 'articles').where('item', '=', '1').where('action', '=', 'update').execute();
      expect(updates.length).toBe(1);
      // Main has changed since the version was made now.
      expect((await t.request.get(`/versions/${id}/compare`).set(auth(editor)).expect(200)).body.data.outdated).toBe(true);
    });

    it('promotes only the picked fields', async () => {
      const id = (await createVersion(admin, { key: 'pick', collection: 'articles', item: 2 }).expect(200)).body.data.id;
      await t.request.post(`/versions/${id}/save`).set(auth(admin)).send({ title: 'Second, picked', body: 'not picked' }).expect(200);
      await t.request.post(`/versions/${id}/promote`).set(auth(admin)).send({ fields: ['title'] }).expect(200);
      const row = await t.system.db.selectFrom('articles').select(['title', 'body']).where('id', '=', 2).executeTakeFirstOrThrow();
      expect(row).toEqual({ title: 'Second, picked', body: 'two' });
      const unknown = await t.request.post(`/versions/${id}/promote`).set(auth(admin)).send({ fields: ['status'] }).expect(400);
      expect(unknown.body.errors[0].extensions.field).toBe('fields');
    });

    it('refuses to promote after main changed (409), and accepts the current hash', async () => {
      const id = (await createVersion(admin, { key: 'stale', collection: 'articles', item: 2 }).expect(200)).body.data.id;
      await t.request.post(`/versions/${id}/save`).set(auth(admin)).send({ body: 'from the version' }).expect(200);
      await t.request.patch('/items/articles/2').set(auth(admin)).send({ title: 'Changed on main' }).expect(200);
      const refused = await t.request.post(`/versions/${id}/promote`).set(auth(admin)).send({}).expect(409);
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'VERSION_OUTDATED', field: 'mainHash' });
      const wrong = await t.request.post(`/versions/${id}/promote`).set(auth(admin)).send({ mainHash: 'f'.repeat(40) }).expect(409);
      expect(wrong.body.errors[0].extensions.code).toBe('VERSION_OUTDATED');
      const { mainHash, outdated } = (await t.request.get(`/versions/${id}/compare`).set(auth(admin)).expect(200)).body.data;
      expect(outdated).toBe(true);
      await t.request.post(`/versions/${id}/promote`).set(auth(admin)).send({ mainHash }).expect(200);
      const row = await t.system.db.selectFrom('articles').select(['title', 'body']).where('id', '=', 2).executeTakeFirstOrThrow();
      expect(row).toEqual({ title: 'Changed on main', body: 'from the version' });
    });
  });

  describe('?version= reads', () => {
    it('returns the item with the version applied, an m2o change expanded with the query sub-fields', async () => {
      const id = (await createVersion(admin, { key: 'new-author', collection: 'articles', item: 1 }).expect(200)).body.data.id;
      await t.request.post(`/versions/${id}/save`).set(auth(admin)).send({ author: 2, body: 'versioned body' }).expect(200);
      const read = await t.request.get('/items/articles/1?version=new-author&fields=id,body,author.name').set(auth(editor)).expect(200);
      expect(read.body.data).toEqual({ id: 1, body: 'versioned body', author: { name: 'Grace' } });
      const flat = await t.request.get('/items/articles/1?version=new-author&fields=id,author').set(auth(editor)).expect(200);
      expect(flat.body.data).toEqual({ id: 1, author: 2 });
      const main = await t.request.get('/items/articles/1?fields=id,author.name').set(auth(editor)).expect(200);
      expect(main.body.data).toEqual({ id: 1, author: { name: 'Ada' } });
      const none = await t.request.get('/items/articles/1?version=nope').set(auth(editor)).expect(400);
      expect(none.body.errors[0].extensions.field).toBe('version');
    });
  });

  describe('permissions', () => {
    it('refuses to save a field the role cannot update, or a value its validation refuses, and stores nothing', async () => {
      const id = (await createVersion(editor, { key: 'perm', collection: 'articles', item: 1 }).expect(200)).body.data.id;
      const forbidden = await t.request.post(`/versions/${id}/save`).set(auth(editor)).send({ status: 'published' }).expect(403);
      expect(forbidden.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'status' });
      const invalid = await t.request.post(`/versions/${id}/save`).set(auth(editor)).send({ title: null }).expect(400);
      expect(invalid.body.errors[0].extensions.code).toBe('FAILED_VALIDATION');
      const badType = await t.request.post(`/versions/${id}/save`).set(auth(editor)).send({ author: 'not a key' }).expect(400);
      expect(badType.body.errors[0].extensions.field).toBe('author');
      const stored = await t.system.db.selectFrom('tessera_revisions').select('id').where('version', '=', id).execute();
      expect(stored).toEqual([]);
      expect(await title(1)).toBe('First, rewritten');
    });

    it('hides versions of items the caller cannot read', async () => {
      const secret = (await createVersion(admin, { key: 'secret', collection: 'articles', item: 3 }).expect(200)).body.data.id;
      await t.request.post(`/versions/${secret}/save`).set(auth(admin)).send({ title: 'Still secret' }).expect(200);
      // Hidden by the editor's read rule; the outsider cannot read articles at all.
      for (const token of [editor, outsider]) {
        await t.request.get(`/versions/${secret}/compare`).set(auth(token)).expect(403);
        await t.request.post(`/versions/${secret}/save`).set(auth(token)).send({ title: 'x' }).expect(403);
        await t.request.post(`/versions/${secret}/promote`).set(auth(token)).send({}).expect(403);
        await t.request.get('/items/articles/3?version=secret').set(auth(token)).expect(403);
        const create = await createVersion(token, { key: 'mine', collection: 'articles', item: 3 }).expect(400);
        expect(create.body.errors[0].extensions.field).toBe('item');
      }
      // The generic /versions list follows the role's permissions on tessera_versions (none here).
      await t.request.get('/versions').set(auth(outsider)).expect(403);
      expect(await title(3)).toBe('Secret');
    });
  });
});
