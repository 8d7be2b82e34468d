import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithExif, pngImage } from '../../helpers/images.ts';
import { bearer, binaryBody, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

describe('replacing, deleting, importing and the MIME allow-list', () => {
  let t: FilesTestApp;
  let admin: string;
  let remote: Server;
  let remoteUrl: string;
  let png: Buffer;

  beforeAll(async () => {
    t = await createFilesTestApp({ FILES_MIME_TYPE_ALLOW_LIST: 'image/*,text/plain', FILES_IMPORT_ALLOWED_HOSTS: '127.0.0.1', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', FILES_IMPORT_TIMEOUT: '1s', FILES_MAX_UPLOAD_SIZE: '100kb' });
    admin = await t.login();
    png = await pngImage(60, 40);
    remote = createServer((req, res) => {
      if (req.url === '/image.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
      if (req.url === '/redirect-away') return void res.writeHead(302, { Location: 'http://localhost.invalid/x.png' }).end();
      if (req.url === '/redirect-home') return void res.writeHead(302, { Location: '/image.png' }).end();
      if (req.url === '/big') return void res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(200 * 1024) }).end(Buffer.alloc(200 * 1024));
      if (req.url === '/slow') return void res.writeHead(200, { 'Content-Type': 'image/png' }).write(png.subarray(0, 20));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    remote.closeAllConnections();
    await new Promise((resolve) => remote.close(resolve));
    await t.close();
  });

  const upload = async (data: Buffer, filename: string) => (await t.request.post('/files').set(bearer(admin)).attach('file', data, filename).expect(200)).body.data;

  it('replaces the content with PATCH multipart: new metadata, old content and cached transforms gone', async () => {
    const file = await upload(png, 'first.png');
    await binaryBody(t.request.get(`/assets/${file.id}?width=10`).set(bearer(admin))).expect(200);
    expect((await t.storedFiles()).some((name) => name.startsWith(`.transforms/${file.id}/`))).toBe(true);
    const jpeg = await jpegWithExif(90, 30);
    const replaced = (await t.request.patch(`/files/${file.id}`).set(bearer(admin)).field('title', 'Replaced').attach('file', jpeg, 'second.jpg').expect(200)).body.data;
    expect(replaced).toMatchObject({ id: file.id, title: 'Replaced', type: 'image/jpeg', width: 90, height: 30, filesize: String(jpeg.length), filename_download: 'second.jpg', filename_disk: `${file.id}.jpg` });
    const stored = await t.storedFiles();
    expect(stored).toContain(`${file.id}.jpg`);
    expect(stored).not.toContain(`${file.id}.png`);
    expect(stored.some((name) => name.startsWith(`.transforms/${file.id}/`))).toBe(false);
    expect(await readFile(path.join(t.uploads, `${file.id}.jpg`))).toEqual(jpeg);

    // Same type again: a new name, so the old content stays intact until the row points elsewhere.
    const again = (await t.request.patch(`/files/${file.id}`).set(bearer(admin)).attach('file', await jpegWithExif(20, 20), 'third.jpg').expect(200)).body.data;
    expect(again.filename_disk).not.toBe(`${file.id}.jpg`);
    expect((await t.storedFiles()).filter((name) => name.startsWith(file.id))).toEqual([again.filename_disk]);

    // A failed replacement changes nothing.
    await t.request.patch(`/files/${file.id}`).set(bearer(admin)).attach('file', Buffer.from('%PDF-1.4 not allowed'), 'doc.pdf').expect(415);
    expect((await t.request.get(`/files/${file.id}`).set(bearer(admin)).expect(200)).body.data.filename_disk).toBe(again.filename_disk);
    expect((await t.storedFiles()).filter((name) => name.startsWith(file.id))).toEqual([again.filename_disk]);
  });

  it('a replacement keeps the focal point at the same place of the new picture, or takes the one sent', async () => {
    const file = await upload(await pngImage(400, 200), 'focal.png');
    await t.request.patch(`/files/${file.id}`).set(bearer(admin)).send({ focal_point_x: 100, focal_point_y: 150 }).expect(200);
    const smaller = (await t.request.patch(`/files/${file.id}`).set(bearer(admin)).attach('file', await pngImage(200, 50), 'smaller.png').expect(200)).body.data;
    expect(smaller).toMatchObject({ width: 200, height: 50, focal_point_x: 50, focal_point_y: 38 });
    const sent = (await t.request.patch(`/files/${file.id}`).set(bearer(admin)).field('focal_point_x', '10').field('focal_point_y', '20').attach('file', await pngImage(300, 300), 'square.png').expect(200)).body.data;
    expect(sent).toMatchObject({ width: 300, height: 300, focal_point_x: 10, focal_point_y: 20 });
    // Content without a size (text) has no focal point.
    const text = (await t.request.patch(`/files/${file.id}`).set(bearer(admin)).attach('file', Buffer.from('plain words\n'), 'notes.txt').expect(200)).body.data;
    expect(text).toMatchObject({ type: 'text/plain', focal_point_x: null, focal_point_y: null });
  });

  it('refuses server-managed fields in JSON updates, and allows the others', async () => {
    const file = await upload(png, 'json.png');
    const refused = await t.request.patch(`/files/${file.id}`).set(bearer(admin)).send({ type: 'text/html' }).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'type' });
    await t.request.patch('/files').set(bearer(admin)).send({ keys: [file.id], data: { filesize: 1 } }).expect(400);
    const updated = (await t.request.patch(`/files/${file.id}`).set(bearer(admin)).send({ title: 'Renamed', focal_point_x: 3 }).expect(200)).body.data;
    expect(updated).toMatchObject({ title: 'Renamed', focal_point_x: 3, type: 'image/png' });
  });

  it('deletes content with the row (one and many)', async () => {
    const one = await upload(png, 'one.png');
    const two = await upload(png, 'two.png');
    const three = await upload(png, 'three.png');
    await t.request.delete(`/files/${one.id}`).set(bearer(admin)).expect(204);
    await t.request.delete('/files').set(bearer(admin)).send([two.id, three.id]).expect(204);
    const stored = await t.storedFiles();
    for (const file of [one, two, three]) expect(stored).not.toContain(file.filename_disk);
    expect((await t.request.get(`/files?filter[id][_in]=${one.id},${two.id},${three.id}`).set(bearer(admin)).expect(200)).body.data).toEqual([]);
  });

  it('refuses types outside the allow-list with 415, leaving nothing behind', async () => {
    const before = { files: await t.storedFiles(), rows: await t.fileCount() };
    const response = await t.request.post('/files').set(bearer(admin)).attach('file', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n'), { filename: 'fake.png', contentType: 'image/png' }).expect(415);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', field: 'file', type: 'application/pdf' });
    expect(await t.storedFiles()).toEqual(before.files);
    expect(await t.fileCount()).toBe(before.rows);
  });

  it('imports from an allowed host with POST /files/import', async () => {
    const file = (await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/image.png`, data: { title: 'Imported' } }).expect(200)).body.data;
    expect(file).toMatchObject({ title: 'Imported', type: 'image/png', width: 60, height: 40, filename_download: 'image.png' });
    const redirected = (await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/redirect-home` }).expect(200)).body.data;
    expect(redirected.type).toBe('image/png');
  });

  it('refuses imports from other hosts, failures, oversize and slow downloads without leaving anything', async () => {
    const before = { files: await t.storedFiles(), rows: await t.fileCount() };
    const expectError = async (body: Record<string, unknown>, status: number, code: string) => {
      const response = await t.request.post('/files/import').set(bearer(admin)).send(body).expect(status);
      expect([body.url, response.body.errors[0].extensions]).toEqual([body.url, expect.objectContaining({ code, field: 'url' })]);
    };
    await expectError({ url: `http://localhost:${new URL(remoteUrl).port}/image.png` }, 403, 'FORBIDDEN');
    await expectError({ url: `${remoteUrl}/redirect-away` }, 403, 'FORBIDDEN');
    await expectError({ url: 'file:///etc/passwd' }, 400, 'INVALID_PAYLOAD');
    await expectError({ url: `${remoteUrl}/missing` }, 400, 'INVALID_PAYLOAD');
    await expectError({ url: `${remoteUrl}/big` }, 413, 'CONTENT_TOO_LARGE');
    await expectError({ url: `${remoteUrl}/slow` }, 400, 'INVALID_PAYLOAD');
    await t.request.post('/files/import').set(bearer(admin)).send({}).expect(400);
    await t.request.post('/files/import').send({ url: `${remoteUrl}/image.png` }).expect(403);
    expect(await t.storedFiles()).toEqual(before.files);
    expect(await t.fileCount()).toBe(before.rows);
  });
});
