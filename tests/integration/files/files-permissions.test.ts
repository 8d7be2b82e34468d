import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

describe('permissions on file writes', () => {
  let t: FilesTestApp;
  let admin: string;
  let uploader: string;
  let reader: string;
  let adminFile: { id: string; filename_disk: string };

  const login = async (email: string, role: string) => {
    await t.request.post('/users').set(bearer(admin)).send({ email, password: 'user-password-1', role, status: 'active' }).expect(200);
    return t.login(email, 'user-password-1');
  };

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
    const uploaderRole = (await t.request.post('/roles').set(bearer(admin)).send({ name: 'Uploader', app_access: true }).expect(200)).body.data.id;
    const readerRole = (await t.request.post('/roles').set(bearer(admin)).send({ name: 'Reader', app_access: true }).expect(200)).body.data.id;
    await t.request
      .post('/permissions')
      .set(bearer(admin))
      .send([
        // Uploaders may set only the title and description, and only read and change their own files.
        { role: uploaderRole, collection: 'tessera_files', action: 'create', fields: ['title', 'description'], presets: { description: 'uploaded by an uploader' } },
        { role: uploaderRole, collection: 'tessera_files', action: 'read', fields: ['*'], permissions: { uploaded_by: { _eq: '$CURRENT_USER' } } },
        { role: uploaderRole, collection: 'tessera_files', action: 'update', fields: ['title'], permissions: { uploaded_by: { _eq: '$CURRENT_USER' } } },
        { role: uploaderRole, collection: 'tessera_files', action: 'delete', permissions: { uploaded_by: { _eq: '$CURRENT_USER' } } },
        { role: readerRole, collection: 'tessera_files', action: 'read', fields: ['*'] },
      ])
      .expect(200);
    uploader = await login('uploader@example.com', uploaderRole);
    reader = await login('reader@example.com', readerRole);
    adminFile = (await t.request.post('/files').set(bearer(admin)).attach('file', await pngImage(8, 8), 'admin.png').expect(200)).body.data;
  });
  afterAll(() => t.close());

  it('lets a role with field-limited create permission upload: the server writes the content columns, presets apply', async () => {
    const file = (await t.request.post('/files').set(bearer(uploader)).field('title', 'Mine').attach('file', await pngImage(12, 6), 'mine.png').expect(200)).body.data;
    expect(file).toMatchObject({ title: 'Mine', description: 'uploaded by an uploader', type: 'image/png', width: 12, height: 6 });
    const refused = await t.request.post('/files').set(bearer(uploader)).field('folder', '').attach('file', await pngImage(4, 4), 'x.png').expect(403);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'folder' });
  });

  it('refuses writes the role does not have, before reading the body, and changes nothing', async () => {
    const before = { files: await t.storedFiles(), rows: await t.fileCount() };
    await t.request.post('/files').set(bearer(reader)).attach('file', await pngImage(4, 4), 'x.png').expect(403);
    await t.request.patch(`/files/${adminFile.id}`).set(bearer(reader)).attach('file', await pngImage(30, 30), 'x.png').expect(403);
    await t.request.patch(`/files/${adminFile.id}`).set(bearer(uploader)).attach('file', await pngImage(30, 30), 'x.png').expect(403);
    await t.request.delete(`/files/${adminFile.id}`).set(bearer(uploader)).expect(403);
    await t.request.delete(`/files/${adminFile.id}`).set(bearer(reader)).expect(403);
    expect(await t.storedFiles()).toEqual(before.files);
    expect(await t.fileCount()).toBe(before.rows);
    expect((await sharp(await readFile(path.join(t.uploads, adminFile.filename_disk))).metadata()).width).toBe(8);
  });

  it('lets the owner replace and delete their own file', async () => {
    const file = (await t.request.post('/files').set(bearer(uploader)).attach('file', await pngImage(10, 10), 'own.png').expect(200)).body.data;
    const replaced = (await t.request.patch(`/files/${file.id}`).set(bearer(uploader)).field('title', 'Bigger').attach('file', await pngImage(20, 20), 'own.png').expect(200)).body.data;
    expect(replaced).toMatchObject({ title: 'Bigger', width: 20 });
    await t.request.delete(`/files/${file.id}`).set(bearer(uploader)).expect(204);
    expect((await t.storedFiles()).some((name) => name.startsWith(file.id))).toBe(false);
  });
});
