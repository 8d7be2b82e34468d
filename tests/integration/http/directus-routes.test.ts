import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolesService } from '../../../server/services/roles-service.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { startSecondInstance, type SecondInstance } from '../../helpers/second-instance.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Directus routes Tessera adds for compatibility: batch schema updates, SEARCH, cache clear, page tracking. */
describe('Directus routes', () => {
  let t: TestApp;
  let second: SecondInstance;
  let admin: string;
  let editor: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL });
    second = await startSecondInstance(t);
    admin = await t.login();
    const role = await new RolesService(t.system).create({ name: 'Editor', admin_access: false, app_access: true });
    await new UsersService(t.system).createOne({ email: 'editor@example.com', password: 'editor-password', role: role.id });
    editor = await t.login('editor@example.com', 'editor-password');
    for (const collection of ['books', 'shelves']) {
      await t.request.post('/collections').set(auth()).send({ collection, fields: [{ field: 'title', type: 'string' }, { field: 'pages', type: 'integer' }] }).expect(200);
    }
    await t.request.post('/items/books').set(auth()).send([{ title: 'A', pages: 10 }, { title: 'B', pages: 200 }, { title: 'C', pages: 300 }]).expect(200);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('PATCH /collections updates several collections in one transaction', async () => {
    const response = await t.request
      .patch('/collections')
      .set(auth())
      .send([{ collection: 'books', meta: { icon: 'book' } }, { collection: 'shelves', meta: { note: 'Where books live' } }])
      .expect(200);
    expect(response.body.data).toMatchObject([{ collection: 'books', meta: { icon: 'book' } }, { collection: 'shelves', meta: { note: 'Where books live' } }]);
    const failed = await t.request
      .patch('/collections')
      .set(auth())
      .send([{ collection: 'books', meta: { icon: 'changed' } }, { collection: 'shelves', meta: { accountability: 'never' } }])
      .expect(400);
    expect(failed.body.errors[0].extensions.field).toBe('meta.accountability');
    expect((await t.request.get('/collections/books').set(auth()).expect(200)).body.data.meta.icon).toBe('book');
    expect((await t.request.patch('/collections').set(auth()).send({ collection: 'books' }).expect(400)).body.errors[0].extensions.field).toBe('body');
    await t.request.patch('/collections').set({ Authorization: `Bearer ${editor}` }).send([{ collection: 'books', meta: { icon: 'x' } }]).expect(403);
  });

  it('PATCH /fields/:collection updates several fields in one transaction', async () => {
    const response = await t.request
      .patch('/fields/books')
      .set(auth())
      .send([{ field: 'title', meta: { note: 'The title', width: 'half' } }, { field: 'pages', schema: { default_value: 1 } }])
      .expect(200);
    expect(response.body.data).toMatchObject([{ field: 'title', meta: { note: 'The title', width: 'half' } }, { field: 'pages', schema: { default_value: 1 } }]);
    const failed = await t.request
      .patch('/fields/books')
      .set(auth())
      .send([{ field: 'title', meta: { note: 'undone' } }, { field: 'missing', meta: { note: 'x' } }]);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    expect((await t.request.get('/fields/books/title').set(auth()).expect(200)).body.data.meta.note).toBe('The title');
    expect((await t.request.patch('/fields/books').set(auth()).send([{ meta: {} }]).expect(400)).body.errors[0].extensions.field).toBe('[0].field');
  });

  it('answers SEARCH with the query in the body, on items and system collections', async () => {
    const items = await t.request
      .search('/items/books')
      .set(auth())
      .send({ query: { filter: { pages: { _gte: 100 } }, fields: ['title'], sort: ['-pages'], limit: 5 } })
      .expect(200);
    expect(items.body.data).toEqual([{ title: 'C' }, { title: 'B' }]);
    const users = await t.request.search('/users').set(auth()).send({ query: { filter: { email: { _eq: 'editor@example.com' } }, fields: 'email' } }).expect(200);
    expect(users.body.data).toEqual([{ email: 'editor@example.com' }]);
    const collections = await t.request.search('/collections').set(auth()).send({}).expect(200);
    expect(collections.body.data.length).toBeGreaterThan(2);
    const bad = await t.request.search('/items/books').set(auth()).send({ query: { filter: { nope: { _eq: 1 } } } });
    expect(bad.status).toBe(400);
    expect((await t.request.search('/items/books').set(auth()).send({ query: 'x' }).expect(400)).body.errors[0].extensions.field).toBe('query');
    await t.request.search('/items/books').send({ query: {} }).expect(403);
  });

  it('POST /utils/cache/clear clears the schema cache on every instance (admins only)', async () => {
    expect((await second.request.get('/fields/books/title').set(auth()).expect(200)).body.data.meta.note).toBe('The title');
    await sql`update tessera_fields set note = 'changed in SQL' where collection = 'books' and field = 'title'`.execute(t.system.db);
    expect((await second.request.get('/fields/books/title').set(auth()).expect(200)).body.data.meta.note).toBe('The title');
    await t.request.post('/utils/cache/clear').set({ Authorization: `Bearer ${editor}` }).expect(403);
    await t.request.post('/utils/cache/clear').set(auth()).expect(200);
    await expect.poll(async () => (await second.request.get('/fields/books/title').set(auth())).body.data.meta.note).toBe('changed in SQL');
  });

  it('PATCH /users/me/track/page records the last page of the signed-in user', async () => {
    await t.request.patch('/users/me/track/page').set({ Authorization: `Bearer ${editor}` }).send({ last_page: '/content/books' }).expect(204);
    const me = await t.request.get('/users/me?fields=last_page').set({ Authorization: `Bearer ${editor}` }).expect(200);
    expect(me.body.data.last_page).toBe('/content/books');
    expect((await t.request.patch('/users/me/track/page').set(auth()).send({ page: 1 }).expect(400)).body.errors[0].extensions.field).toBeTruthy();
    await t.request.patch('/users/me/track/page').send({ last_page: '/x' }).expect(403);
  });
});
