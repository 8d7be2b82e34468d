import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 31, item 7: POST /schema/diff answers Directus's lists (collections, fields, relations) beside
// Tessera's plan, and /schema/diff and /schema/apply take a multipart file (YAML or JSON) as Directus does.
describe('schema diff shape and multipart files (issue 31)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let snapshot: Record<string, any>;
  let yaml: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = { Authorization: `Bearer ${await t.login()}` };
    // A note that reads as a date: js-yaml's default loader (Directus's clients, its suite) must get the string back.
    await t.request.post('/collections').set(admin).send({ collection: 'authors', meta: { note: '2024-05-01' }, fields: [{ field: 'name', type: 'string' }] }).expect(200);
    await t.request.post('/collections').set(admin).send({ collection: 'books', fields: [{ field: 'title', type: 'string' }, { field: 'author', type: 'integer' }] }).expect(200);
    await t.request.post('/relations').set(admin).send({ collection: 'books', field: 'author', related_collection: 'authors', meta: { one_field: 'books' } }).expect(200);
    snapshot = (await t.request.get('/schema/snapshot').set(admin).expect(200)).body.data;
    const exported = await t.request.get('/schema/snapshot').query({ export: 'yaml' }).set(admin).expect(200);
    expect(exported.headers['content-type']).toMatch(/^text\/yaml/);
    yaml = exported.text;
    expect(load(yaml)).toEqual(snapshot);
    await t.request.delete('/collections/books').set(admin).expect(204);
    await t.request.delete('/collections/authors').set(admin).expect(204);
  });
  afterAll(() => t.close());

  it('lists one entry per collection, field and relation that differs, every field of a new collection included', async () => {
    const diff = (await t.request.post('/schema/diff').set(admin).send(snapshot).expect(200)).body.data.diff;
    const ours = (item: { collection: string }) => ['authors', 'books'].includes(item.collection);
    expect(diff.collections.map((entry: { collection: string }) => entry.collection).sort()).toEqual(['authors', 'books']);
    expect(diff.fields).toHaveLength(snapshot.fields.filter(ours).length);
    expect(diff.relations).toHaveLength(snapshot.relations.filter(ours).length);
    expect(diff.collections[0].diff).toEqual([{ kind: 'N', rhs: snapshot.collections.find((item: { collection: string }) => item.collection === diff.collections[0].collection) }]);
    expect(diff.relations[0]).toMatchObject({ collection: 'books', field: 'author', related_collection: 'authors', diff: [{ kind: 'N' }] });
    // Tessera's own plan and the snapshot apply reads are still there.
    expect(diff.steps.length).toBeGreaterThan(0);
    expect(diff.snapshot).toEqual(snapshot);
  });

  it('takes the snapshot as a YAML file and the diff back as a JSON file (multipart/form-data), then answers 204', async () => {
    const diffed = (await t.request.post('/schema/diff').set(admin).attach('file', Buffer.from(yaml)).expect(200)).body.data;
    expect(diffed.diff.collections).toHaveLength(2);
    await t.request.post('/schema/apply').set(admin).attach('file', Buffer.from(JSON.stringify(diffed))).expect(204);
    await t.request.post('/items/books').set(admin).send({ title: 'Back', author: { name: 'Again' } }).expect(200);
    await t.request.post('/schema/diff').set(admin).attach('file', Buffer.from(yaml)).expect(204);
  });

  it('lists an edited field as the changed paths, and refuses a stale hash in words Directus clients look for', async () => {
    const stale = (await t.request.post('/schema/diff').set(admin).send({ ...snapshot, fields: snapshot.fields.map((field: any) => (field.collection === 'books' && field.field === 'title' ? { ...field, meta: { ...field.meta, note: 'The title' } } : field)) }).expect(200)).body.data;
    expect(stale.diff.collections).toEqual([]);
    expect(stale.diff.fields).toEqual([{ collection: 'books', field: 'title', diff: [expect.objectContaining({ path: ['meta', 'note'], rhs: 'The title' })] }]);
    await t.request.patch('/fields/books/title').set(admin).send({ meta: { note: 'Changed meanwhile' } }).expect(200);
    const refused = await t.request.post('/schema/apply').set(admin).send(stale).expect(409);
    expect(refused.body.errors[0].message).toContain('Please generate a new diff and try again.');
  });

  it('refuses a multipart body without a file, or with a file that is neither JSON nor YAML, naming "file"; non-admins get 403', async () => {
    const empty = await t.request.post('/schema/diff').set(admin).field('note', 'x').expect(400);
    expect(empty.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'file' });
    const garbled = await t.request.post('/schema/diff').set(admin).attach('file', Buffer.from('collections: [unclosed')).expect(400);
    expect(garbled.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'file' });
    await t.request.post('/schema/diff').attach('file', Buffer.from(yaml)).expect(403);
    await t.request.get('/schema/snapshot').query({ export: 'csv' }).set(admin).expect(400);
  });
});
