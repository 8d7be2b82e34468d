import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from '../files/files-fixture.ts';

/**
 * Server-managed columns of tessera_files (where the content is stored, its size, type, metadata, who
 * uploaded it) can't be written by any client, on any path of the items service (security issue item 4).
 */
describe('server-managed file columns', () => {
  let t: FilesTestApp;
  let admin: string;
  let user: string;
  let victim: { id: string; filename_disk: string; storage: string };
  let own: { id: string };

  const rowsOnDisk = async (filename: string) =>
    Number((await t.system.db.selectFrom('tessera_files').select((eb) => eb.fn.countAll<string>().as('n')).where('filename_disk', '=', filename).executeTakeFirstOrThrow()).n);
  const importFiles = (token: string, rows: object[]) =>
    t.request.post('/utils/import/tessera_files').set(bearer(token)).attach('file', Buffer.from(JSON.stringify(rows)), { filename: 'files.json', contentType: 'application/json' });

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
    const role = (await t.request.post('/roles').set(bearer(admin)).send({ name: 'Uploader', app_access: true }).expect(200)).body.data.id;
    for (const action of ['create', 'read', 'update']) {
      await t.request.post('/permissions').set(bearer(admin)).send({ role, collection: 'tessera_files', action, fields: '*', permissions: action === 'create' ? null : { uploaded_by: { _eq: '$CURRENT_USER' } } }).expect(200);
    }
    await t.request.post('/users').set(bearer(admin)).send({ email: 'user@example.com', password: 'user-password-1', role, status: 'active' }).expect(200);
    user = await t.login('user@example.com', 'user-password-1');
    victim = (await t.request.post('/files').set(bearer(admin)).attach('file', await pngImage(8, 8), 'secret.png').expect(200)).body.data;
    own = (await t.request.post('/files').set(bearer(user)).attach('file', await pngImage(4, 4), 'mine.png').expect(200)).body.data;
  });
  afterAll(() => t.close());

  it('refuses forged content columns in nested writes, batches and imports, naming the field', async () => {
    const forged = { filename_disk: victim.filename_disk, storage: victim.storage, type: 'image/png', filename_download: 'x.png' };
    const attempts: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ['filename_disk', () => t.request.patch('/users/me').set(bearer(user)).send({ avatar: forged })],
      ['filename_disk', () => t.request.patch('/users/me').set(bearer(user)).send({ avatar: { id: own.id, filename_disk: victim.filename_disk } })],
      ['uploaded_by', () => t.request.patch('/users/me').set(bearer(user)).send({ avatar: { id: own.id, uploaded_by: null } })],
      ['filesize', () => t.request.patch('/files').set(bearer(user)).send({ keys: [own.id], data: { filesize: 1 } })],
      ['filename_disk', () => importFiles(user, [forged])],
      // Administrators included: the columns describe stored content, only the files service writes them.
      ['filename_disk', () => importFiles(admin, [forged])],
      ['storage', () => t.request.patch('/users/me').set(bearer(admin)).send({ avatar: { storage: 'local', filename_download: 'y.png' } })],
    ];
    for (const [field, attempt] of attempts) {
      const response = await attempt();
      expect(response.status, `${field}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
    expect(await rowsOnDisk(victim.filename_disk)).toBe(1);
    const mine = await t.system.db.selectFrom('tessera_files').select(['filename_disk', 'uploaded_by', 'filesize']).where('id', '=', own.id).executeTakeFirstOrThrow();
    expect(mine.uploaded_by).not.toBeNull();
    expect(mine.filename_disk).not.toBe(victim.filename_disk);
  });

  it('still lets the files service write them, and clients write the descriptive fields', async () => {
    await t.request.patch('/users/me').set(bearer(user)).send({ avatar: { id: own.id, title: 'Me' } }).expect(200);
    await t.request.patch(`/files/${own.id}`).set(bearer(user)).attach('file', await pngImage(6, 6), 'again.png').expect(200);
    const row = await t.system.db.selectFrom('tessera_files').select(['title', 'width', 'filename_download']).where('id', '=', own.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: 'Me', width: 6, filename_download: 'again.png' });
  });

  it('reverting a file to a revision restores its descriptive fields, never its content columns', async () => {
    const file = (await t.request.post('/files').set(bearer(admin)).field('title', 'First').attach('file', await pngImage(5, 5), 'first.png').expect(200)).body.data;
    const [created] = (await t.request.get(`/revisions?filter[collection][_eq]=tessera_files&filter[item][_eq]=${file.id}&fields=id&sort=id`).set(bearer(admin)).expect(200)).body.data;
    await t.request.patch(`/files/${file.id}`).set(bearer(admin)).attach('file', await pngImage(7, 7), 'second.png').expect(200);
    await t.request.patch(`/files/${file.id}`).set(bearer(admin)).send({ title: 'Second' }).expect(200);
    const before = await t.system.db.selectFrom('tessera_files').select(['filename_disk', 'width', 'filesize']).where('id', '=', file.id).executeTakeFirstOrThrow();
    const revert = await t.request.post(`/utils/revert/${created.id}`).set(bearer(admin));
    expect(revert.status, JSON.stringify(revert.body)).toBe(204);
    const after = await t.system.db.selectFrom('tessera_files').select(['title', 'filename_disk', 'width', 'filesize']).where('id', '=', file.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ ...before, title: 'First' });
  });
});
