import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

/** Every unhandled error the test process sees while a test runs (a dangling stream erroring later lands here). */
function watchProcess() {
  const seen: unknown[] = [];
  const record = (error: unknown) => void seen.push(error);
  return {
    seen,
    start() {
      process.on('uncaughtException', record);
      process.on('unhandledRejection', record);
    },
    stop() {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    },
  };
}

const IMPORT_TIMEOUT_MS = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('POST /files/import never leaves a stream behind', () => {
  let t: FilesTestApp;
  let admin: string;
  let remote: Server;
  let remoteUrl: string;
  let png: Buffer;
  const watcher = watchProcess();

  beforeAll(async () => {
    t = await createFilesTestApp({ FILES_MIME_TYPE_ALLOW_LIST: 'image/*,text/plain,application/octet-stream', FILES_IMPORT_ALLOWED_HOSTS: '127.0.0.1', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', FILES_IMPORT_TIMEOUT: `${IMPORT_TIMEOUT_MS}ms`, FILES_MAX_UPLOAD_SIZE: '100kb' });
    admin = await t.login();
    png = await pngImage(40, 30);
    remote = createServer((req, res) => {
      const url = req.url ?? '';
      if (url.startsWith('/image.png') || url.startsWith('/%')) return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
      // Chunked (no Content-Length) and larger than the limit; the rest keeps coming slowly.
      if (url === '/big-chunked') {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        res.write(Buffer.alloc(150 * 1024, 1));
        const timer = setInterval(() => res.write(Buffer.alloc(1024, 1)), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (url === '/bad-disposition') return void res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Disposition': "attachment; filename*=UTF-8''%E0%A4%A.png" }).end(png);
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
  beforeEach(() => watcher.start());
  afterEach(() => watcher.stop());

  const expectAnswered = async () => {
    // The sentinel: a timer of the download's length started after the answer expires after the download's own
    // timer (Node fires timers in order of expiry), which is what makes a stream left open error; the turns of
    // the loop after it let that error reach the process. No guess at the machine's speed.
    await sleep(IMPORT_TIMEOUT_MS);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(watcher.seen).toEqual([]);
    await t.request.get('/server/ping').expect(200);
  };

  it('imports successfully and leaves no timer behind', async () => {
    const file = (await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/image.png` }).expect(200)).body.data;
    expect(file).toMatchObject({ type: 'image/png', width: 40, height: 30 });
    await expectAnswered();
  });

  it('refuses a server-managed field in data with 400, before and without leaking the download', async () => {
    const before = { files: await t.storedFiles(), rows: await t.fileCount() };
    const response = await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/image.png`, data: { filename_disk: '../../etc/passwd' } }).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'filename_disk' });
    await expectAnswered();
    expect(await t.storedFiles()).toEqual(before.files);
    expect(await t.fileCount()).toBe(before.rows);
  });

  it('stops an over-size download without Content-Length with 413 and closes it', async () => {
    const before = { files: await t.storedFiles(), rows: await t.fileCount() };
    const response = await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/big-chunked` }).expect(413);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'CONTENT_TOO_LARGE', field: 'url' });
    await expectAnswered();
    expect(await t.storedFiles()).toEqual(before.files);
    expect(await t.fileCount()).toBe(before.rows);
  });

  it('refuses a row the items service rejects after the content was stored, and closes the download', async () => {
    const response = await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/image.png`, data: { folder: 'not-a-uuid' } });
    expect([response.status, response.body.errors[0].extensions.field]).toEqual([400, 'folder']);
    await expectAnswered();
  });

  it('answers 400 naming url for malformed percent-encoding in the URL or the remote file name', async () => {
    for (const url of [`${remoteUrl}/%E0%A4%A.png`, `${remoteUrl}/bad-disposition`]) {
      const response = await t.request.post('/files/import').set(bearer(admin)).send({ url });
      expect([url, response.status]).toEqual([url, 400]);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'url' });
    }
    await expectAnswered();
  });
});

describe('storage keys from the database never leave the storage root', () => {
  let t: FilesTestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('answers 403 for a forged filename_disk (traversal, absolute, backslashes, drive letters) on reads, transforms and deletes', async () => {
    const png = await pngImage(20, 20);
    const file = (await t.request.post('/files').set(bearer(admin)).attach('file', png, 'a.png').expect(200)).body.data;
    for (const forged of ['../../etc/passwd', '/etc/passwd', 'a/../../../etc/passwd', '..\\..\\etc\\passwd', 'C:/Windows/win.ini']) {
      await t.system.db.updateTable('tessera_files').set({ filename_disk: forged }).where('id', '=', file.id).execute();
      for (const query of ['', '?width=10']) {
        const response = await t.request.get(`/assets/${file.id}${query}`).set(bearer(admin));
        expect([forged, query, response.status]).toEqual([forged, query, 403]);
        expect(response.body.errors[0].extensions.code).toBe('FORBIDDEN');
      }
    }
    await t.request.delete(`/files/${file.id}`).set(bearer(admin)).expect(204);
  });

  it('answers 400 naming the field for malformed percent-encoding in an upload file name', async () => {
    const png = await pngImage(10, 10);
    const boundary = 'xxBOUNDARYxx';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''%E0%A4%A.png\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await t.request.post('/files').set(bearer(admin)).set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'file' });
    expect(response.body.errors[0].message).toMatch(/well-formed filename/);
  });
});
