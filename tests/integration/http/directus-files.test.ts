import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesTestApp, type FilesTestApp } from '../files/files-fixture.ts';

/** Directus file routes: a file row from a JSON body, and the storage location chosen in a multipart upload. */
describe('Directus file routes', () => {
  let t: FilesTestApp;
  let archive: string;
  let admin: string;
  const auth = () => ({ Authorization: `Bearer ${admin}` });

  beforeAll(async () => {
    archive = await mkdtemp(path.join(tmpdir(), 'tessera-archive-'));
    t = await createFilesTestApp({ STORAGE_LOCATIONS: 'local,archive', STORAGE_ARCHIVE_ROOT: archive });
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
    await rm(archive, { recursive: true, force: true });
  });

  it('POST /files with a JSON body creates a file row without content', async () => {
    const response = await t.request.post('/files').set(auth()).send({ filename_download: 'later.pdf', type: 'application/pdf', description: 'to import', storage: 'local' }).expect(200);
    // Without storage: Directus's 400 FAILED_VALIDATION, word for word (issue 31).
    const missing = await t.request.post('/files').set(auth()).send({ filename_download: 'later.pdf' }).expect(400);
    expect(missing.body.errors[0]).toMatchObject({ message: 'Validation failed for field "storage". Value is required.', extensions: { code: 'FAILED_VALIDATION', field: 'storage' } });
    expect(response.body.data).toMatchObject({ filename_download: 'later.pdf', title: 'Later', type: 'application/pdf', storage: 'local', filename_disk: null, filesize: null, description: 'to import' });
    await t.request.get(`/assets/${response.body.data.id}`).set(auth()).expect(403);
    const elsewhere = await t.request.post('/files').set(auth()).send({ filename_download: 'x.txt', storage: 'archive' }).expect(200);
    expect(elsewhere.body.data.storage).toBe('archive');
    expect((await t.request.post('/files').set(auth()).send({ filename_download: 'x.txt', storage: 'nowhere' }).expect(400)).body.errors[0].extensions.field).toBe('storage');
    expect((await t.request.post('/files').set(auth()).send({ title: 'no name', storage: 'local' }).expect(400)).body.errors[0].extensions.field).toBe('filename_download');
    expect((await t.request.post('/files').set(auth()).send({ filename_download: 'x', filesize: 3, storage: 'local' }).expect(400)).body.errors[0].extensions.field).toBe('filesize');
    expect((await t.request.post('/files').set(auth()).send({ filename_download: 'x', type: 'not a type', storage: 'local' }).expect(400)).body.errors[0].extensions.field).toBe('type');
    await t.request.post('/files').send({ filename_download: 'x.txt' }).expect(403);
  });

  it('stores a multipart upload in the location named by a `storage` field before the file', async () => {
    const response = await t.request.post('/files').set(auth()).field('storage', 'archive').field('title', 'Archived').attach('file', Buffer.from('hello archive'), 'note.txt').expect(200);
    expect(response.body.data).toMatchObject({ storage: 'archive', title: 'Archived', filesize: '13' });
    const stored = await readdir(archive, { recursive: true });
    expect(stored.some((name) => name.includes(response.body.data.id))).toBe(true);
    const asset = await t.request.get(`/assets/${response.body.data.id}`).set(auth()).expect(200);
    expect(asset.text ?? asset.body.toString()).toBe('hello archive');
    const bad = await t.request.post('/files').set(auth()).field('storage', 'nowhere').attach('file', Buffer.from('x'), 'x.txt').expect(400);
    expect(bad.body.errors[0].extensions.field).toBe('storage');
    const plain = await t.request.post('/files').set(auth()).attach('file', Buffer.from('default'), 'd.txt').expect(200);
    expect(plain.body.data.storage).toBe('local');
  });
});
