import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

describe('/folders: a tree of folders for files', () => {
  let t: FilesTestApp;
  let admin: string;

  const folder = async (name: string, parent: string | null = null) => (await t.request.post('/folders').set(bearer(admin)).send({ name, parent }).expect(200)).body.data.id as string;
  const fileIn = async (folderId: string | null) =>
    (await t.request.post('/files').set(bearer(admin)).field('folder', folderId ?? '').attach('file', await pngImage(4, 4), 'f.png').expect(200)).body.data.id as string;
  const folderOf = async (fileId: string) => (await t.request.get(`/files/${fileId}?fields=folder`).set(bearer(admin)).expect(200)).body.data.folder;
  const parentOf = async (folderId: string) => (await t.request.get(`/folders/${folderId}?fields=parent`).set(bearer(admin)).expect(200)).body.data.parent;

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('nests folders, reads the tree through parent, and files default to settings.storage_default_folder', async () => {
    const root = await folder('Media');
    const child = await folder('Photos', root);
    const tree = (await t.request.get(`/folders?fields=name,parent.name&filter[id][_in]=${root},${child}&sort=name`).set(bearer(admin)).expect(200)).body.data;
    expect(tree).toEqual([{ name: 'Media', parent: null }, { name: 'Photos', parent: { name: 'Media' } }]);
    expect(await folderOf(await fileIn(null))).toBeNull();
    await t.request.patch('/settings').set(bearer(admin)).send({ storage_default_folder: child }).expect(200);
    expect(await folderOf((await t.request.post('/files').set(bearer(admin)).attach('file', await pngImage(4, 4), 'g.png').expect(200)).body.data.id)).toBe(child);
    await t.request.patch('/settings').set(bearer(admin)).send({ storage_default_folder: null }).expect(200);
  });

  it('moves folders, but never into themselves or their subfolders', async () => {
    const a = await folder('A');
    const b = await folder('B', a);
    const c = await folder('C', b);
    const other = await folder('Other');
    for (const request of [
      t.request.patch(`/folders/${a}`).send({ parent: c }),
      t.request.patch(`/folders/${a}`).send({ parent: a }),
      t.request.patch('/folders').send({ keys: [a], data: { parent: b } }),
      t.request.patch('/folders').send([{ id: b, parent: c }]),
    ]) {
      const response = await request.set(bearer(admin)).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'parent' });
    }
    await t.request.patch(`/folders/${b}`).set(bearer(admin)).send({ parent: other }).expect(200);
    expect(await parentOf(b)).toBe(other);
    expect(await parentOf(c)).toBe(b);
  });

  it('deleting a folder moves its files and subfolders to its parent, or to the root', async () => {
    const top = await folder('Top');
    const middle = await folder('Middle', top);
    const bottom = await folder('Bottom', middle);
    const inMiddle = await fileIn(middle);
    const inTop = await fileIn(top);
    await t.request.delete(`/folders/${middle}`).set(bearer(admin)).expect(204);
    expect(await folderOf(inMiddle)).toBe(top);
    expect(await parentOf(bottom)).toBe(top);
    // Deleting a folder and its parent together: everything goes to the nearest survivor, here the root.
    await t.request.delete('/folders').set(bearer(admin)).send([top, bottom]).expect(204);
    expect(await folderOf(inMiddle)).toBeNull();
    expect(await folderOf(inTop)).toBeNull();
    const left = (await t.request.get(`/folders?filter[id][_in]=${top},${middle},${bottom}`).set(bearer(admin)).expect(200)).body.data;
    expect(left).toEqual([]);
  });

  it('checks permissions: a caller without delete permission changes nothing', async () => {
    const role = (await t.request.post('/roles').set(bearer(admin)).send({ name: 'Viewer', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/users').set(bearer(admin)).send({ email: 'viewer@example.com', password: 'viewer-password-1', role, status: 'active' }).expect(200);
    await t.request.post('/permissions').set(bearer(admin)).send([
      { role, collection: 'tessera_folders', action: 'read', fields: ['*'] },
      { role, collection: 'tessera_files', action: 'update', fields: ['*'] },
      { role, collection: 'tessera_folders', action: 'update', fields: ['*'] },
    ]).expect(200);
    const viewer = await t.login('viewer@example.com', 'viewer-password-1');
    const kept = await folder('Kept');
    const child = await folder('Child', kept);
    const file = await fileIn(kept);
    await t.request.delete(`/folders/${kept}`).set(bearer(viewer)).expect(403);
    expect(await folderOf(file)).toBe(kept);
    expect(await parentOf(child)).toBe(kept);
  });
});
