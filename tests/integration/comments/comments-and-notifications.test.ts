import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PUBLIC_URL = 'http://tessera.test';

describe('comments, mentions and notifications', () => {
  let ses: SesEmulator;
  let t: TestApp;
  let admin: string;
  const users: Record<'alice' | 'bob' | 'carol' | 'quiet', { id: string; token: string }> = {} as never;
  let articleId: number;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const notificationsOf = (recipient: string) => t.system.db.selectFrom('tessera_notifications').selectAll().where('recipient', '=', recipient).orderBy('id').execute();

  beforeAll(async () => {
    ses = await startSesEmulator();
    t = await createTestApp({ ...ses.env, PUBLIC_URL });
    admin = await t.login();
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }] }).expect(200);
    const editorRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
    const outsiderRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Outsider', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/permissions').set(auth(admin)).send({ role: editorRole, collection: 'articles', action: 'read', fields: '*' }).expect(200);
    articleId = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Hello' }).expect(200)).body.data.id;
    const roles = { alice: editorRole, bob: editorRole, carol: outsiderRole, quiet: editorRole };
    for (const [name, role] of Object.entries(roles) as [keyof typeof users, string][]) {
      const email = `${name}@example.com`;
      const id = (await t.request.post('/users').set(auth(admin)).send({ email, password: `${name}-password-1`, role, status: 'active', first_name: name, email_notifications: name !== 'quiet' }).expect(200)).body.data.id;
      users[name] = { id, token: await t.login(email, `${name}-password-1`) };
    }
  });
  afterAll(async () => {
    await t.close();
    await ses.close();
  });

  it('creates, edits and deletes one\'s own comment; another\'s is 403; admins may', async () => {
    const created = await t.request.post('/activity/comment').set(auth(users.alice.token)).send({ collection: 'articles', item: articleId, comment: 'First!' }).expect(200);
    expect(created.body.data).toMatchObject({ action: 'comment', collection: 'articles', item: String(articleId), comment: 'First!', user: users.alice.id });
    const id = created.body.data.id;

    const listed = await t.request.get(`/activity?filter[action][_eq]=comment&filter[item][_eq]=${articleId}`).set(auth(admin)).expect(200);
    expect(listed.body.data.map((row: { id: number }) => row.id)).toContain(id);

    const edited = await t.request.patch(`/activity/comment/${id}`).set(auth(users.alice.token)).send({ comment: 'First, edited' }).expect(200);
    expect(edited.body.data.comment).toBe('First, edited');

    const foreignEdit = await t.request.patch(`/activity/comment/${id}`).set(auth(users.bob.token)).send({ comment: 'hijack' }).expect(403);
    expect(foreignEdit.body.errors[0].extensions.code).toBe('FORBIDDEN');
    await t.request.delete(`/activity/comment/${id}`).set(auth(users.bob.token)).expect(403);
    await t.request.patch(`/activity/comment/${id}`).set(auth(admin)).send({ comment: 'moderated' }).expect(200);

    await t.request.delete(`/activity/comment/${id}`).set(auth(users.alice.token)).expect(204);
    expect(await t.system.db.selectFrom('tessera_activity').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    // Not a comment (a create activity row) is 403 too, even for its author.
    const createRow = await t.system.db.selectFrom('tessera_activity').select('id').where('action', '=', 'create').executeTakeFirstOrThrow();
    await t.request.delete(`/activity/comment/${createRow.id}`).set(auth(admin)).expect(403);
  });

  it('refuses a comment on an unreadable or missing item with the same 403, and bad input with 400 naming the field', async () => {
    const unreadable = await t.request.post('/activity/comment').set(auth(users.carol.token)).send({ collection: 'articles', item: articleId, comment: 'hi' }).expect(403);
    const missing = await t.request.post('/activity/comment').set(auth(users.alice.token)).send({ collection: 'articles', item: 999999, comment: 'hi' }).expect(403);
    expect(unreadable.body.errors[0].message).toBe(missing.body.errors[0].message);
    for (const [body, field] of [
      [{ collection: 'articles', item: articleId }, 'comment'],
      [{ collection: 'articles', item: articleId, comment: '   ' }, 'comment'],
      [{ collection: 'articles', item: articleId, comment: 42 }, 'comment'],
      [{ item: articleId, comment: 'x' }, 'collection'],
      [{ collection: 'articles', item: { id: 1 }, comment: 'x' }, 'item'],
    ] as const) {
      const response = await t.request.post('/activity/comment').set(auth(users.alice.token)).send(body).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
    await t.request.post('/activity/comment').send({ collection: 'articles', item: articleId, comment: 'anonymous' }).expect(403);
  });

  it('a mention notifies a reader once, never a non-reader or the author; editing notifies only new mentions; e-mail with a link', async () => {
    const { alice, bob, carol, quiet } = users;
    const text = `Look @${bob.id} and @${bob.id} and @${carol.id} and @${alice.id} <script>alert(1)</script> **now**`;
    const created = await t.request.post('/activity/comment').set(auth(alice.token)).send({ collection: 'articles', item: articleId, comment: text }).expect(200);
    const bobs = await notificationsOf(bob.id);
    expect(bobs).toHaveLength(1);
    expect(bobs[0]).toMatchObject({ sender: alice.id, status: 'inbox', collection: 'articles', item: String(articleId), message: 'Look @bob and @bob and @carol and @alice <script>alert(1)</script> **now**', subject: 'alice mentioned you in a comment' });
    expect(await notificationsOf(carol.id)).toHaveLength(0);
    expect(await notificationsOf(alice.id)).toHaveLength(0);

    const [mail] = await ses.waitForEmails('bob@example.com');
    expect(mail!.subject).toBe('alice mentioned you in a comment');
    expect(mail!.body.text).toContain(`${PUBLIC_URL}/admin/content/articles/${articleId}`);
    expect(mail!.body.html).toContain('<strong>now</strong>');
    expect(mail!.body.html).not.toContain('<script>');

    await t.request.patch(`/activity/comment/${created.body.data.id}`).set(auth(alice.token)).send({ comment: `${text} and @${quiet.id}` }).expect(200);
    expect(await notificationsOf(bob.id)).toHaveLength(1);
    expect(await notificationsOf(quiet.id)).toHaveLength(1);
    await t.context.mailer.idle();
    expect(await ses.emailsTo('bob@example.com')).toHaveLength(1);
    expect(await ses.emailsTo('quiet@example.com')).toHaveLength(0); // email_notifications off
    expect(await ses.emailsTo('carol@example.com')).toHaveLength(0);
  });

  it('admins create notifications (e-mailed after commit); status is inbox/archived; users read and archive only their own', async () => {
    const { alice, bob } = users;
    const sent = await t.request.post('/notifications').set(auth(admin)).send({ recipient: alice.id, subject: 'Review please', message: 'See [the draft](javascript:alert(1))', collection: 'articles', item: String(articleId) }).expect(200);
    const id = sent.body.data.id;
    const [mail] = await ses.waitForEmails('alice@example.com');
    expect(mail!.subject).toBe('Review please');
    expect(mail!.body.html).not.toContain('javascript:');

    const bad = await t.request.post('/notifications').set(auth(admin)).send({ recipient: alice.id, subject: 'x', status: 'deleted' }).expect(400);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'status' });
    const badUpdate = await t.request.patch(`/notifications/${id}`).set(auth(alice.token)).send({ status: 'read' }).expect(400);
    expect(badUpdate.body.errors[0].extensions.field).toBe('status');

    // SPEC §6: read own; update only the status of own.
    const aliceSees = await t.request.get('/notifications?fields=id,recipient').set(auth(alice.token)).expect(200);
    expect(aliceSees.body.data.every((row: { recipient: string }) => row.recipient === alice.id)).toBe(true);
    expect(aliceSees.body.data.map((row: { id: number }) => row.id)).toContain(id);
    const bobSees = await t.request.get('/notifications?fields=id').set(auth(bob.token)).expect(200);
    expect(bobSees.body.data.map((row: { id: number }) => row.id)).not.toContain(id);

    await t.request.patch(`/notifications/${id}`).set(auth(alice.token)).send({ subject: 'changed' }).expect(403);
    await t.request.patch(`/notifications/${id}`).set(auth(bob.token)).send({ status: 'archived' }).expect(403);
    await t.request.post('/notifications').set(auth(alice.token)).send({ recipient: bob.id, subject: 'spam' }).expect(403);
    await t.request.patch(`/notifications/${id}`).set(auth(alice.token)).send({ status: 'archived' }).expect(200);
    const row = await t.system.db.selectFrom('tessera_notifications').select(['status', 'subject']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'archived', subject: 'Review please' });
  });
});
