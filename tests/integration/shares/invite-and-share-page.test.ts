import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkIn, startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PUBLIC_URL = 'http://tessera.test';

// POST /shares/invite (Directus's shape: { share, emails }, answered 204) through the real SES v2 emulator.
describe('POST /shares/invite', () => {
  let ses: SesEmulator;
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  let aliceShare: string;
  let adminShare: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  async function makeUser(email: string, role: string, extra: object = {}): Promise<string> {
    await t.request.post('/users').set(auth(admin)).send({ email, password: 'a-long-password-1', role, status: 'active', ...extra }).expect(200);
    return t.login(email, 'a-long-password-1');
  }

  beforeAll(async () => {
    ses = await startSesEmulator();
    t = await createTestApp({ ...ses.env, PUBLIC_URL });
    admin = await t.login();
    await t.request.patch('/users/me').set(auth(admin)).send({ first_name: 'Ana', last_name: 'Souza' }).expect(200);
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', meta: { display_template: '{{title}}' }, fields: [{ field: 'title', type: 'string' }, { field: 'secret_note', type: 'string' }] }).expect(200);
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'private_notes', fields: [{ field: 'body', type: 'string' }] }).expect(200);
    await t.request.post('/items/articles').set(auth(admin)).send([{ title: 'Harbour at dawn' }, { title: 'Second' }]).expect(200);
    // Editors may share articles and create shares; the app defaults let each read only their own shares (SPEC §6).
    const editorRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
    for (const permission of [
      { action: 'read', collection: 'articles', fields: 'id,title' },
      { action: 'read', collection: 'private_notes', fields: '*' },
      { action: 'share', collection: 'articles', fields: '*' },
      { action: 'create', collection: 'tessera_shares', fields: '*' },
    ]) {
      await t.request.post('/permissions').set(auth(admin)).send({ role: editorRole, ...permission }).expect(200);
    }
    alice = await makeUser('alice@example.com', editorRole, { first_name: 'Alice', last_name: 'Lima' });
    bob = await makeUser('bob@example.com', editorRole);
    aliceShare = (await t.request.post('/shares').set(auth(alice)).send({ name: 'Harbour story', collection: 'articles', item: '1' }).expect(200)).body.data.id;
    adminShare = (await t.request.post('/shares').set(auth(admin)).send({ collection: 'articles', item: '2', password: 'secret-pass' }).expect(200)).body.data.id;
    // A user who reads Portuguese.
    await t.request.post('/users').set(auth(admin)).send({ email: 'paula@example.com', role: editorRole, language: 'pt-BR' }).expect(200);
  });
  afterAll(async () => {
    await t?.close();
    await ses?.close();
  });
  beforeEach(async () => {
    await ses.clear();
    await t.system.db.updateTable('tessera_settings').set({ default_language: 'en-US' }).execute();
  });

  it('e-mails the link of the share page to every address, named by the inviter and the share', async () => {
    await t.request.post('/shares/invite').set(auth(alice)).send({ share: aliceShare, emails: ['Reader@Example.com', 'other@example.com'] }).expect(204);
    for (const address of ['reader@example.com', 'other@example.com']) {
      const [mail] = await ses.waitForEmails(address);
      expect(mail!.subject).toBe('Alice Lima shared an item with you');
      expect(mail!.body.text).toContain('Alice Lima invited you to view “Harbour story” in Tessera.');
      expect(mail!.body.html).toContain('View the item');
      expect(linkIn(mail!).href).toBe(`${PUBLIC_URL}/admin/shared/${aliceShare}`);
    }
    // The link opens the share: its public facts are readable by anyone.
    const info = await t.request.get(`/shares/info/${aliceShare}`).expect(200);
    expect(info.body.data).toMatchObject({ id: aliceShare, collection: 'articles', item: '1', password: false });
  });

  it('writes in the recipient’s language, else the project’s default language (en-US or pt-BR)', async () => {
    await t.request.post('/shares/invite').set(auth(admin)).send({ share: adminShare, emails: ['paula@example.com', 'guest@example.com'] }).expect(204);
    const [portuguese] = await ses.waitForEmails('paula@example.com');
    expect(portuguese!.subject).toBe('Ana Souza compartilhou um item com você');
    expect(portuguese!.body.text).toContain('convidou você para ver “articles 2” em Tessera.');
    expect(portuguese!.body.html).toContain('<html lang="pt-BR">');
    expect(portuguese!.body.html).toContain('Se o botão não funcionar, copie este endereço no seu navegador:');
    expect(portuguese!.body.html).not.toContain('If the button does not work');
    const [english] = await ses.waitForEmails('guest@example.com');
    expect(english!.subject).toBe('Ana Souza shared an item with you');

    await t.system.db.updateTable('tessera_settings').set({ default_language: 'pt-BR' }).execute();
    await t.request.post('/shares/invite').set(auth(admin)).send({ share: adminShare, emails: ['guest@example.com'] }).expect(204);
    const [, later] = await ses.waitForEmails('guest@example.com', 2);
    expect(later!.subject).toBe('Ana Souza compartilhou um item com você');
    expect(later!.body.text).toContain('Ver o item: ');
  });

  it('invites only for shares the caller may read; nobody else sends anything', async () => {
    // Bob shares Alice's role but may read only his own shares (SPEC §6), so hers is FORBIDDEN, as is an unknown one.
    const refused = await t.request.post('/shares/invite').set(auth(bob)).send({ share: aliceShare, emails: ['x@example.com'] }).expect(403);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    await t.request.post('/shares/invite').set(auth(alice)).send({ share: adminShare, emails: ['x@example.com'] }).expect(403);
    await t.request.post('/shares/invite').set(auth(admin)).send({ share: '00000000-0000-4000-8000-000000000000', emails: ['x@example.com'] }).expect(403);
    // The public role and a share session (even of this very share) cannot invite.
    await t.request.post('/shares/invite').send({ share: aliceShare, emails: ['x@example.com'] }).expect(403);
    const session = (await t.request.post('/shares/auth').send({ share: aliceShare }).expect(200)).body.data.access_token;
    await t.request.post('/shares/invite').set(auth(session)).send({ share: aliceShare, emails: ['x@example.com'] }).expect(403);
    // The one allowed call after them arrives; none of the refused ones did.
    await t.request.post('/shares/invite').set(auth(alice)).send({ share: aliceShare, emails: ['y@example.com'] }).expect(204);
    await ses.waitForEmails('y@example.com');
    await t.context.mailer.idle();
    expect(await ses.emailsTo('x@example.com')).toHaveLength(0);
  });

  it('names the bad field with 400 INVALID_PAYLOAD', async () => {
    const cases: Array<[object, string]> = [
      [{ emails: ['a@example.com'] }, 'share'],
      [{ share: 'not-a-uuid', emails: ['a@example.com'] }, 'share'],
      [{ share: aliceShare }, 'emails'],
      [{ share: aliceShare, emails: 'a@example.com' }, 'emails'],
      [{ share: aliceShare, emails: [] }, 'emails'],
      [{ share: aliceShare, emails: ['a@example.com', 'not-an-email'] }, 'emails'],
      [{ share: aliceShare, emails: [42] }, 'emails'],
      [{ share: aliceShare, emails: Array.from({ length: 51 }, (_, index) => `p${index}@example.com`) }, 'emails'],
    ];
    for (const [body, field] of cases) {
      const response = await t.request.post('/shares/invite').set(auth(alice)).send(body).expect(400);
      expect(response.body.errors[0].extensions, JSON.stringify(body)).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
    await t.context.mailer.idle();
    expect(await ses.emails()).toHaveLength(0);
  });

  it('a share session reads the schema of the shared collection only, with its readable fields (the share page)', async () => {
    const session = (await t.request.post('/shares/auth').send({ share: aliceShare }).expect(200)).body.data.access_token;
    const collection = await t.request.get('/collections/articles').set(auth(session)).expect(200);
    expect(collection.body.data.meta.display_template).toBe('{{title}}');
    const fields = await t.request.get('/fields/articles').set(auth(session)).expect(200);
    expect(fields.body.data.map((field: { field: string }) => field.field).sort()).toEqual(['id', 'title']);
    const item = await t.request.get('/items/articles/1').set(auth(session)).expect(200);
    expect(item.body.data).toEqual({ id: 1, title: 'Harbour at dawn' });
    // Nothing the share does not reach, though its role reads private_notes: not its schema, not its items.
    await t.request.get('/collections/private_notes').set(auth(session)).expect(403);
    await t.request.get('/fields/private_notes').set(auth(session)).expect(403);
    const listed = await t.request.get('/collections').set(auth(session)).expect(200);
    expect(listed.body.data.map((entry: { collection: string }) => entry.collection)).toEqual(['articles']);
    const allFields = await t.request.get('/fields').set(auth(session)).expect(200);
    expect(new Set(allFields.body.data.map((field: { collection: string }) => field.collection))).toEqual(new Set(['articles']));
    await t.request.get('/items/private_notes').set(auth(session)).expect(403);
    // Nor any schema write.
    await t.request.post('/fields/articles').set(auth(session)).send({ field: 'sneaky', type: 'string' }).expect(403);
  });
});
