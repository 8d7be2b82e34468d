import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * docs/permissions.md rules for writes that no other test pins: a create permission's item rule checked in
 * SQL on the rows as written (the whole request refused with 403, nothing written), one permission row per
 * role/collection/action (400 RECORD_NOT_UNIQUE), and 204 for a caller that may write but not read.
 */
describe('write rules of permissions', () => {
  let t: TestApp;
  let admin: string;
  let editorRole: string;
  let editor: string;
  let writerRole: string;
  let writer: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  const count = async (collection: string) =>
    Number((await t.system.db.selectFrom(collection).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const titles = async (collection: string) =>
    (await t.system.db.selectFrom(collection).select('title').orderBy('title').execute()).map((row) => row.title as string);

  async function userWithRole(name: string, email: string, permissions: object[]): Promise<{ role: string; token: string }> {
    const role = (await t.request.post('/roles').set(auth(admin)).send({ name, app_access: true }).expect(200)).body.data.id as string;
    for (const permission of permissions) await t.request.post('/permissions').set(auth(admin)).send({ role, ...permission }).expect(200);
    await t.request.post('/users').set(auth(admin)).send({ email, password: 'writer-password-1', role, status: 'active' }).expect(200);
    return { role, token: await t.login(email, 'writer-password-1') };
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'teams', fields: [{ field: 'name', type: 'string' }, { field: 'open', type: 'boolean' }] }).expect(200);
    await t.request
      .post('/collections')
      .set(auth(admin))
      .send({ collection: 'notes', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }, { field: 'team', type: 'integer' }] })
      .expect(200);
    await t.request.post('/relations').set(auth(admin)).send({ collection: 'notes', field: 'team', related_collection: 'teams' }).expect(200);
    await t.request.post('/items/teams').set(auth(admin)).send([{ name: 'Open', open: true }, { name: 'Closed', open: false }]).expect(200);
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'inbox', fields: [{ field: 'title', type: 'string' }] }).expect(200);

    // Creates drafts only, in open teams only (a relational rule), and reads what it may create.
    ({ role: editorRole, token: editor } = await userWithRole('Editor', 'editor@example.com', [
      { collection: 'notes', action: 'create', fields: '*', permissions: { _and: [{ status: { _eq: 'draft' } }, { team: { open: { _eq: true } } }] } },
      { collection: 'notes', action: 'read', fields: '*' },
    ]));
    // Writes to the inbox but may not read it.
    ({ role: writerRole, token: writer } = await userWithRole('Writer', 'writer@example.com', [
      { collection: 'inbox', action: 'create', fields: '*' },
      { collection: 'inbox', action: 'update', fields: '*' },
    ]));
  });
  afterAll(() => t.close());

  describe("a create permission's item rule", () => {
    it('accepts rows that match it, a relational rule included', async () => {
      const created = await t.request.post('/items/notes').set(auth(editor)).send({ title: 'ok', status: 'draft', team: 1 }).expect(200);
      expect(created.body.data).toMatchObject({ title: 'ok', status: 'draft', team: 1 });
      expect(await titles('notes')).toEqual(['ok']);
    });

    it('refuses a single row outside it with 403 and writes nothing', async () => {
      const refused = await t.request.post('/items/notes').set(auth(editor)).send({ title: 'published', status: 'published', team: 1 }).expect(403);
      expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
      // The rule is relational: the team's own field decides, checked on the row as written.
      await t.request.post('/items/notes').set(auth(editor)).send({ title: 'closed team', status: 'draft', team: 2 }).expect(403);
      expect(await titles('notes')).toEqual(['ok']);
    });

    it('refuses the whole batch when one row is outside it', async () => {
      const batch = [
        { title: 'batch 1', status: 'draft', team: 1 },
        { title: 'batch 2', status: 'published', team: 1 },
        { title: 'batch 3', status: 'draft', team: 1 },
      ];
      await t.request.post('/items/notes').set(auth(editor)).send(batch).expect(403);
      expect(await titles('notes')).toEqual(['ok']);
      await t.request.post('/items/notes').set(auth(editor)).send(batch.filter((row) => row.status === 'draft')).expect(200);
      expect(await titles('notes')).toEqual(['batch 1', 'batch 3', 'ok']);
    });

    it('is checked on presets and defaults too: what is written counts, not what was sent', async () => {
      // No status sent: the column is null, which the rule does not match.
      await t.request.post('/items/notes').set(auth(editor)).send({ title: 'no status', team: 1 }).expect(403);
      expect(await count('notes')).toBe(3);
    });
  });

  describe('one permission row per role, collection and action', () => {
    it('refuses a second row for the same role, collection and action with 400 RECORD_NOT_UNIQUE', async () => {
      const second = await t.request.post('/permissions').set(auth(admin)).send({ role: editorRole, collection: 'notes', action: 'create', fields: 'title' }).expect(400);
      expect(second.body.errors[0].extensions.code).toBe('RECORD_NOT_UNIQUE');
      const rows = await t.system.db.selectFrom('tessera_permissions').select('fields').where('role', '=', editorRole).where('collection', '=', 'notes').where('action', '=', 'create').execute();
      expect(rows).toEqual([{ fields: '*' }]);
    });

    it('applies to the public role (role null) as well, and to a batch', async () => {
      await t.request.post('/permissions').set(auth(admin)).send({ role: null, collection: 'notes', action: 'read', fields: 'title' }).expect(200);
      const again = await t.request.post('/permissions').set(auth(admin)).send({ role: null, collection: 'notes', action: 'read', fields: '*' }).expect(400);
      expect(again.body.errors[0].extensions.code).toBe('RECORD_NOT_UNIQUE');
      const batch = await t.request
        .post('/permissions')
        .set(auth(admin))
        .send([
          { role: writerRole, collection: 'notes', action: 'read', fields: 'title' },
          { role: writerRole, collection: 'notes', action: 'read', fields: '*' },
        ])
        .expect(400);
      expect(batch.body.errors[0].extensions.code).toBe('RECORD_NOT_UNIQUE');
      const publicRows = await t.system.db.selectFrom('tessera_permissions').select('fields').where('role', 'is', null).where('collection', '=', 'notes').execute();
      expect(publicRows).toEqual([{ fields: 'title' }]);
      const writerRows = await t.system.db.selectFrom('tessera_permissions').select('id').where('role', '=', writerRole).where('collection', '=', 'notes').execute();
      expect(writerRows).toEqual([]);
    });

    it('still allows the same action on another collection or for another role', async () => {
      await t.request.post('/permissions').set(auth(admin)).send({ role: writerRole, collection: 'notes', action: 'create', fields: 'title' }).expect(200);
      await t.request.post('/permissions').set(auth(admin)).send({ role: editorRole, collection: 'inbox', action: 'create', fields: 'title' }).expect(200);
    });
  });

  describe('a caller that may write but not read', () => {
    it('gets 204 No Content on create and update, and the write happened', async () => {
      const created = await t.request.post('/items/inbox').set(auth(writer)).send({ title: 'letter' });
      expect(created.status).toBe(204);
      expect(created.text).toBe('');
      const [row] = await t.system.db.selectFrom('inbox').select(['id', 'title']).execute();
      expect(row).toMatchObject({ title: 'letter' });

      const updated = await t.request.patch(`/items/inbox/${row!.id}`).set(auth(writer)).send({ title: 'letter, revised' });
      expect(updated.status).toBe(204);
      expect(updated.text).toBe('');
      expect(await titles('inbox')).toEqual(['letter, revised']);
      await t.request.get('/items/inbox').set(auth(writer)).expect(403);
    });
  });
});
