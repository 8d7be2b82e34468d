import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshotFolder } from '../../../server/snapshot/load-snapshot.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { EXAMPLE_FOLDER, snapshotService } from './snapshot-helpers.ts';

describe('/schema over HTTP', () => {
  let app: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    app = await createTestApp();
    await snapshotService(app).apply(loadSnapshotFolder(EXAMPLE_FOLDER));
    auth = { Authorization: `Bearer ${await app.login()}` };
  });
  afterAll(() => app.close());

  it('GET /schema/snapshot returns version, vendor, the schema and the extra sections', async () => {
    const { body } = await app.request.get('/schema/snapshot').set(auth).expect(200);
    expect(body.data).toMatchObject({ version: 2, vendor: 'postgres' });
    expect(body.data.collections.map((c: { collection: string }) => c.collection)).toEqual(['authors', 'categories', 'languages', 'posts', 'posts_categories', 'posts_translations']);
    for (const section of ['fields', 'relations', 'roles', 'permissions', 'presets', 'flows', 'operations', 'dashboards', 'panels', 'translations', 'webhooks', 'folders', 'settings']) expect(body.data).toHaveProperty(section);
  });

  it('answers 204 to a diff against the database itself', async () => {
    const { body } = await app.request.get('/schema/snapshot').set(auth).expect(200);
    await app.request.post('/schema/diff').set(auth).send(body.data).expect(204);
  });

  it('detects drift made through the API, applies the diff, and refuses a diff made before another change', async () => {
    const snapshot = (await app.request.get('/schema/snapshot').set(auth).expect(200)).body.data;
    await app.request.post('/fields/posts').set(auth).send({ field: 'subtitle', type: 'string' }).expect(200);
    await app.request.patch('/collections/posts').set(auth).send({ meta: { note: 'Changed in the admin' } }).expect(200);

    const diff = (await app.request.post('/schema/diff').set(auth).send(snapshot).expect(200)).body.data;
    expect(diff.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(diff.diff.steps).toEqual([
      expect.objectContaining({ kind: 'collection', action: 'update', name: 'posts', changes: [{ path: 'meta.note', from: 'Changed in the admin', to: 'Blog posts' }] }),
      expect.objectContaining({ kind: 'field', action: 'delete', name: 'posts.subtitle' }),
    ]);

    // Another change after the diff: its hash is stale, the apply is refused and changes nothing.
    await app.request.post('/fields/posts').set(auth).send({ field: 'teaser', type: 'text' }).expect(200);
    const stale = await app.request.post('/schema/apply').set(auth).send(diff).expect(409);
    expect(stale.body.errors[0].extensions.code).toBe('SCHEMA_HASH_MISMATCH');
    await app.request.get('/fields/posts/subtitle').set(auth).expect(200);

    const fresh = (await app.request.post('/schema/diff').set(auth).send(snapshot).expect(200)).body.data;
    await app.request.post('/schema/apply').set(auth).send(fresh).expect(204);
    await app.request.post('/schema/diff').set(auth).send(snapshot).expect(204);
    await app.request.get('/fields/posts/subtitle').set(auth).expect(403);
  });

  it('is for administrators only', async () => {
    const { body } = await app.request.post('/users').set(auth).send({ email: 'editor@example.com', password: 'editor-password-1', role: (await app.request.get('/roles').set(auth).query({ filter: JSON.stringify({ name: { _eq: 'Editor' } }) })).body.data[0].id });
    expect(body.data.email).toBe('editor@example.com');
    const editor = { Authorization: `Bearer ${await app.login('editor@example.com', 'editor-password-1')}` };
    for (const request of [app.request.get('/schema/snapshot'), app.request.get('/schema/snapshot').set(editor), app.request.post('/schema/diff').set(editor).send({ version: 2, vendor: 'postgres', collections: [], fields: [], relations: [] })]) {
      const response = await request;
      expect(response.status).toBe(403);
      expect(response.body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
  });

  it('answers 400 naming the path for a bad snapshot', async () => {
    const response = await app.request.post('/schema/diff').set(auth).send({ version: 2, vendor: 'postgres', collections: [{ collection: 'x', meta: null, schema: {} }], fields: [{ collection: 'x', field: 'id', type: 'number' }], relations: [] }).expect(400);
    expect(response.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
    expect(response.body.errors[0].message).toContain('body: fields[0].type must be one of the following values');
    const newer = await app.request.post('/schema/diff').set(auth).send({ version: 9, vendor: 'postgres', collections: [], fields: [], relations: [] }).expect(400);
    expect(newer.body.errors[0].message).toContain('version 9 was written by a newer Tessera');
  });
});
