import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTesseraError } from '../../../server/errors.ts';
import type { DirectusAccountability } from '../../../server/extensions/context/accountability.ts';
import { getSchema } from '../../../server/extensions/context/schema-overview.ts';
import { createExtensionServices, type ExtensionServices } from '../../../server/extensions/context/services.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';

/** The error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error & { status?: number; code?: string; extensions?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { status?: number; code?: string };
  }
  throw new Error('expected the call to be refused');
}

/**
 * The services of an extension's context (docs/extensions-context.md): Directus's classes and methods as
 * facades over Tessera's services, with Directus's collection names, real permissions and side effects.
 */
describe('extension context services', () => {
  let t: TestApp;
  let dataDir: string;
  let services: ExtensionServices;
  let readerRole: string;
  let reader: DirectusAccountability;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const titles = async () => (await t.system.db.selectFrom('articles').select('title').orderBy('title').execute()).map((row) => row.title as string);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-extension-context-'));
    t = await createTestApp({ DATA_DIR: dataDir });
    const admin = await t.login();
    await t.request.post('/collections').set(auth(admin)).send({ collection: 'authors', fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request
      .post('/collections')
      .set(auth(admin))
      .send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }, { field: 'author', type: 'integer' }] })
      .expect(200);
    await t.request.post('/relations').set(auth(admin)).send({ collection: 'articles', field: 'author', related_collection: 'authors' }).expect(200);
    readerRole = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Reader' }).expect(200)).body.data.id as string;
    await t.request.post('/permissions').set(auth(admin)).send({ role: readerRole, collection: 'authors', action: 'read', fields: '*' }).expect(200);
    const user = (await t.request.post('/users').set(auth(admin)).send({ email: 'reader@example.com', password: 'reader-password-1', role: readerRole, status: 'active' }).expect(200)).body.data;
    reader = { user: user.id as string, role: readerRole, admin: false, app: false, ip: '127.0.0.1', userAgent: 'test', origin: null };
    services = createExtensionServices(t.context);
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('ItemsService with full access (no accountability)', () => {
    it('creates, reads, updates and deletes with Directus return values', async () => {
      const articles = new services.ItemsService('articles', { schema: await getSchema(t.context) });
      const first = await articles.createOne({ title: 'First', status: 'draft' });
      expect(typeof first).toBe('number');
      const more = await articles.createMany([{ title: 'Second', status: 'draft' }, { title: 'Third', status: 'published' }]);
      expect(more).toHaveLength(2);

      expect(await articles.readOne(first, { fields: ['title'] })).toEqual({ title: 'First' });
      const drafts = await articles.readByQuery({ filter: { status: { _eq: 'draft' } }, sort: ['title'], fields: ['title'] });
      expect(drafts).toEqual([{ title: 'First' }, { title: 'Second' }]);
      expect((await articles.readMany(more, { fields: ['title'], sort: ['title'] })).map((item) => item.title)).toEqual(['Second', 'Third']);

      expect(await articles.updateOne(first, { title: 'First!' })).toBe(first);
      expect(await articles.updateMany(more, { status: 'review' })).toEqual(more);
      expect(await articles.updateBatch([{ id: more[0], title: 'Second!' }, { id: more[1], title: 'Third!' }])).toEqual(more);
      expect(await articles.updateByQuery({ filter: { status: { _eq: 'review' } } }, { status: 'published' })).toHaveLength(2);
      expect(await titles()).toEqual(['First!', 'Second!', 'Third!']);

      // upsertOne updates the item its key names, and creates one without a key (or with an unknown key).
      expect(await articles.upsertOne({ id: first, title: 'First again' })).toBe(first);
      const upserted = await articles.upsertOne({ title: 'Fourth' });
      expect(upserted).not.toBe(first);
      const [updatedKey, createdKey] = await articles.upsertMany([{ id: upserted, title: 'Fourth!' }, { id: 999, title: 'Fifth' }]);
      expect(updatedKey).toBe(upserted);
      expect(createdKey).toBe(999);
      expect(await titles()).toEqual(['Fifth', 'First again', 'Fourth!', 'Second!', 'Third!']);

      expect(await articles.deleteOne(999)).toBe(999);
      expect(await articles.deleteMany([upserted])).toEqual([upserted]);
      expect(await articles.deleteByQuery({ filter: { title: { _eq: 'Third!' } } })).toEqual([more[1]]);
      expect(await titles()).toEqual(['First again', 'Second!']);
    });

    it('upsertMany is one write: all or nothing, its actions emitted once it commits', async () => {
      const articles = new services.ItemsService('articles');
      const before = await titles();
      const error = await rejection(articles.upsertMany([{ title: 'Batch ok' }, { title: 'Batch bad', nope: true }]));
      expect(error.status).toBe(400);
      expect(await titles()).toEqual(before);

      const created: Array<string | number> = [];
      const off = t.context.events.onAction('articles.items.create', (meta) => void created.push(...meta.keys));
      try {
        const [key] = await articles.upsertMany([{ title: 'Batch ok' }]);
        await expect.poll(() => created).toEqual([key]);
      } finally {
        off();
      }
      await articles.deleteByQuery({ filter: { title: { _eq: 'Batch ok' } } });
    });

    it('records activity and revisions as any write does', async () => {
      const articles = new services.ItemsService('articles');
      const key = await articles.createOne({ title: 'Tracked' });
      await articles.updateOne(key, { title: 'Tracked twice' });
      const activity = await new services.ActivityService().readByQuery({ filter: { collection: { _eq: 'articles' }, item: { _eq: String(key) } }, sort: ['id'], fields: ['action'] });
      expect(activity.map((row) => row.action)).toEqual(['create', 'update']);
      const revisions = await new services.RevisionsService().readByQuery({ filter: { collection: { _eq: 'articles' }, item: { _eq: String(key) } }, fields: ['data'] });
      expect(revisions).toHaveLength(2);
    });

    it("refuses what Tessera's validation refuses, with a Tessera error naming the field", async () => {
      const error = await rejection(new services.ItemsService('articles').createOne({ title: 'x', nope: 1 }));
      expect(isTesseraError(error)).toBe(true);
      expect(error.status).toBe(400);
      expect(error.extensions).toMatchObject({ field: 'nope' });
    });

    it("answers a singleton's defaults before it is saved, and upserts it", async () => {
      await t.request
        .post('/collections')
        .set(auth(await t.login()))
        .send({ collection: 'home', meta: { singleton: true }, fields: [{ field: 'headline', type: 'string', schema: { default_value: 'Welcome' } }] })
        .expect(200);
      const home = new services.ItemsService('home');
      expect(await home.readSingleton()).toEqual({ id: null, headline: 'Welcome' });
      const key = await home.upsertSingleton({ headline: 'Hello' });
      expect(await home.upsertSingleton({ headline: 'Hello again' })).toBe(key);
      expect(await home.readSingleton({ fields: ['headline'] })).toEqual({ headline: 'Hello again' });

      const settings = new services.SettingsService();
      expect(await settings.upsertSingleton({ project_name: 'From an extension' })).toBe(1);
      expect(await settings.readSingleton({ fields: ['project_name'] })).toEqual({ project_name: 'From an extension' });
    });
  });

  describe('a restricted accountability', () => {
    it('is refused a collection its role may not read with a 403 Tessera ForbiddenError', async () => {
      const error = await rejection(new services.ItemsService('articles', { accountability: reader }).readByQuery({}));
      expect(isTesseraError(error)).toBe(true);
      expect(error.name).toBe('ForbiddenError');
      expect(error.status).toBe(403);
      expect(error.code).toBe('FORBIDDEN');
    });

    it('reads what its role may read and is refused writes its role lacks', async () => {
      await new services.ItemsService('authors').createOne({ name: 'Ada' });
      const authors = new services.ItemsService('authors', { accountability: reader });
      expect((await authors.readByQuery({ fields: ['name'] })).map((item) => item.name)).toContain('Ada');
      expect((await rejection(authors.createOne({ name: 'Grace' }))).status).toBe(403);
      expect((await rejection(authors.upsertMany([{ name: 'Grace' }]))).status).toBe(403);
      expect(await t.system.db.selectFrom('authors').select('name').where('name', '=', 'Grace').execute()).toEqual([]);
    });

    it('an admin accountability has full access', async () => {
      const admin = { user: null, role: null, admin: true, app: true };
      expect(Array.isArray(await new services.ItemsService('articles', { accountability: admin }).readByQuery({ limit: 1 }))).toBe(true);
    });
  });

  describe("Directus's system collection names", () => {
    it('reads tessera_users as directus_users, through UsersService and ItemsService', async () => {
      const schema = await getSchema(t.context);
      const [admin] = await new services.UsersService({ schema }).readByQuery({ filter: { email: { _eq: TEST_ADMIN.email } }, fields: ['email', 'role.name'] });
      expect(admin).toEqual({ email: TEST_ADMIN.email, role: { name: 'Administrator' } });
      const same = await new services.ItemsService('directus_users', { schema }).readByQuery({ filter: { email: { _eq: TEST_ADMIN.email } }, fields: ['email'] });
      expect(same).toEqual([{ email: TEST_ADMIN.email }]);
    });

    it('maps collection names in payloads, filters and results both ways', async () => {
      const permissions = new services.PermissionsService();
      const key = await permissions.createOne({ role: readerRole, collection: 'directus_files', action: 'read', fields: ['*'] });
      const stored = await t.system.db.selectFrom('tessera_permissions').select('collection').where('id', '=', key).executeTakeFirstOrThrow();
      expect(stored.collection).toBe('tessera_files');
      const read = await permissions.readByQuery({ filter: { collection: { _in: ['directus_files'] }, role: { _eq: readerRole } }, fields: ['collection', 'action'] });
      expect(read).toEqual([{ collection: 'directus_files', action: 'read' }]);

      // The reader may now read files: its permission took effect for the restricted caller.
      expect(Array.isArray(await new services.FilesService({ accountability: reader }).readByQuery({ limit: 1 }))).toBe(true);

      const users = new services.UsersService();
      const created = await users.createOne({ email: 'made-by-extension@example.com', password: 'extension-password-1', role: readerRole });
      const activity = await new services.ActivityService().readByQuery({ filter: { collection: { _eq: 'directus_users' }, item: { _eq: String(created) } }, fields: ['collection', 'action'] });
      expect(activity).toEqual([{ collection: 'directus_users', action: 'create' }]);
    });

    it('serves collections, fields and relations under Directus names', async () => {
      expect((await new services.CollectionsService().readOne('directus_users')).collection).toBe('directus_users');
      const names = (await new services.CollectionsService().readByQuery()).map((item) => item.collection);
      expect(names).toEqual(expect.arrayContaining(['directus_users', 'directus_files', 'articles']));
      expect(names.some((name) => String(name).startsWith('tessera_'))).toBe(false);
      const email = await new services.FieldsService().readOne('directus_users', 'email');
      expect(email).toMatchObject({ collection: 'directus_users', field: 'email' });
      const [relation] = await new services.RelationsService().readAll('articles');
      expect(relation).toMatchObject({ collection: 'articles', field: 'author', related_collection: 'authors' });
      const userRelations = await new services.RelationsService().readAll('directus_users');
      expect(userRelations.map((item) => item.related_collection)).toContain('directus_roles');
    });
  });

  describe('FilesService', () => {
    it('uploads content, reads the row and deletes both', async () => {
      const files = new services.FilesService();
      const key = await files.uploadOne(Readable.from([Buffer.from('hello from an extension')]), { filename_download: 'hello.txt', title: 'Hello' });
      expect(await files.readOne(key, { fields: ['filename_download', 'title', 'filesize'] })).toEqual({ filename_download: 'hello.txt', title: 'Hello', filesize: '23' });
      const asset = await t.request.get(`/assets/${key}`).set(auth(await t.login())).expect(200);
      expect(asset.text ?? asset.body.toString()).toBe('hello from an extension');
      expect(await files.deleteOne(key)).toBe(key);
      expect(await t.system.db.selectFrom('tessera_files').select('id').where('id', '=', key).execute()).toEqual([]);
    });
  });

  describe('VersionsService and FoldersService', () => {
    it('creates, saves and promotes a content version through Tessera\'s versions service', async () => {
      await t.request.patch('/collections/articles').set(auth(await t.login())).send({ meta: { versioning: true } }).expect(200);
      const articles = new services.ItemsService('articles');
      const key = await articles.createOne({ title: 'Main title' });
      const versions = new services.VersionsService();
      const id = await versions.createOne({ key: 'draft', name: 'Draft', collection: 'articles', item: String(key) });
      expect(await versions.readOne(id, { fields: ['key', 'collection'] })).toEqual({ key: 'draft', collection: 'articles' });
      expect(await versions.save(String(id), { title: 'Draft title' })).toMatchObject({ title: 'Draft title' });
      expect((await articles.readOne(key, { fields: ['title'] })).title).toBe('Main title');
      expect(await versions.promote(String(id))).toBe(key);
      expect((await articles.readOne(key, { fields: ['title'] })).title).toBe('Draft title');
    });

    it('deletes a folder by moving its files up (Tessera\'s folders service)', async () => {
      const folders = new services.FoldersService();
      const parent = await folders.createOne({ name: 'Parent' });
      const child = await folders.createOne({ name: 'Child', parent });
      const file = await new services.FilesService().createOne({ filename_download: 'in-child.txt', folder: child });
      expect((await rejection(folders.updateOne(parent, { parent: child }))).extensions).toMatchObject({ field: 'parent' });
      expect(await folders.deleteOne(child)).toBe(child);
      expect(await new services.FilesService().readOne(file, { fields: ['folder'] })).toEqual({ folder: parent });
    });
  });

  describe('MailService', () => {
    it('sends through the configured transport (the outbox here), one message per recipient', async () => {
      const mail = new services.MailService({ schema: await getSchema(t.context) });
      expect(await mail.send({ to: ['one@example.com', 'two@example.com'], subject: 'From an extension', text: 'Hello <there>' })).toBeNull();
      await mail.send({ to: 'three@example.com', subject: 'Templated', template: { name: 'base', data: { html: '<p>Templated body</p>' } } });
      const files = await readdir(path.join(dataDir, 'outbox'));
      const emls = await Promise.all(files.map((file) => readFile(path.join(dataDir, 'outbox', file), 'utf8')));
      expect(emls.filter((eml) => eml.includes('Subject: From an extension'))).toHaveLength(2);
      const first = emls.find((eml) => eml.includes('To: one@example.com'))!;
      expect(first).toContain('Hello <there>');
      expect(first).toContain('Hello &lt;there&gt;');
      expect(emls.find((eml) => eml.includes('To: three@example.com'))).toContain('<p>Templated body</p>');
    });

    it('refuses a message without a valid recipient, naming the field', async () => {
      const mail = new services.MailService();
      const error = await rejection(mail.send({ to: 'a@example.com\r\nBcc: b@example.com', subject: 'x', text: 'y' }));
      expect(error.status).toBe(400);
      expect(error.extensions).toMatchObject({ field: 'to' });
      expect((await rejection(mail.send({ to: 'a@example.com', template: { name: 'welcome' } }))).extensions).toMatchObject({ field: 'template.name' });
    });
  });

  describe('getSchema', () => {
    it("answers Directus's SchemaOverview shape with an m2o relation", async () => {
      const schema = await getSchema(t.context);
      const articles = schema.collections.articles!;
      expect(articles).toMatchObject({ collection: 'articles', primary: 'id', singleton: false, note: null, sortField: null, accountability: 'all' });
      expect(articles.fields.title).toEqual({
        field: 'title',
        defaultValue: null,
        nullable: true,
        generated: false,
        type: 'string',
        dbType: 'character varying',
        precision: null,
        scale: null,
        special: [],
        note: null,
        alias: false,
        validation: null,
      });
      expect(articles.fields.id).toMatchObject({ type: 'integer', generated: true, nullable: false });
      expect(articles.fields.author).toMatchObject({ type: 'integer', special: ['m2o'] });
      const relation = schema.relations.find((item) => item.collection === 'articles' && item.field === 'author');
      expect(relation).toMatchObject({
        related_collection: 'authors',
        schema: { table: 'articles', column: 'author', foreign_key_table: 'authors', foreign_key_column: 'id' },
        meta: { many_collection: 'articles', many_field: 'author', one_collection: 'authors', one_field: null, junction_field: null },
      });
      expect(schema.collections.directus_users?.primary).toBe('id');
      expect(Object.keys(schema.collections).some((name) => name.startsWith('tessera_'))).toBe(false);
      expect(schema.relations.find((item) => item.collection === 'directus_users' && item.field === 'role')?.related_collection).toBe('directus_roles');
    });
  });
});
