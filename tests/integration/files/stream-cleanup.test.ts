import { randomBytes } from 'node:crypto';
import { readdir, readlink } from 'node:fs/promises';
import { createServer, get, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.ts';
import { pngImage } from '../../helpers/images.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

/** Files under `folder` this process still has open (Linux: /proc/self/fd). */
async function openFilesUnder(folder: string): Promise<string[]> {
  const targets = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((target) => target.startsWith(folder));
}

/** Streams closed by a client that goes away: no file left open, nothing half-written, no unhandled error. */
describe('streams of requests a client abandons', () => {
  let t: FilesTestApp;
  let admin: string;
  let server: Server;
  let port: number;
  const seen: unknown[] = [];
  const record = (error: unknown) => void seen.push(error);

  beforeAll(async () => {
    t = await createFilesTestApp({ FILES_MAX_UPLOAD_SIZE: '20mb' });
    admin = await t.login();
    server = createServer(t.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });
  beforeEach(() => {
    seen.length = 0;
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
  });
  afterEach(() => {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  });

  it('an upload aborted mid-body leaves no file open, no partial file and no row', async () => {
    const before = { files: await t.storedFiles(), rows: await t.fileCount() };
    const boundary = 'abortBoundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /files HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${admin}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
    );
    socket.write(Buffer.concat([head, await pngImage(8, 8), randomBytes(512 * 1024)]));
    // The upload is being written (its partial file open) when the client goes away.
    await eventually(async () => expect(await openFilesUnder(t.uploads)).not.toEqual([]), 10_000, 10);
    socket.destroy();
    // Positive conditions, not a wait: the server closes the partial file and removes it.
    await eventually(async () => expect(await openFilesUnder(t.uploads)).toEqual([]), 10_000, 20);
    await eventually(async () => expect(await t.storedFiles()).toEqual(before.files), 10_000, 20);
    expect(seen).toEqual([]);
    expect(await t.fileCount()).toBe(before.rows);
    await t.request.get('/server/ping').expect(200);
  });

  it('an asset download abandoned after the first bytes closes the stored file', async () => {
    const file = (await t.request.post('/files').set(bearer(admin)).attach('file', randomBytes(8 * 1024 * 1024), { filename: 'blob.bin', contentType: 'application/octet-stream' }).expect(200)).body.data;
    await new Promise<void>((resolve, reject) => {
      const request = get({ host: '127.0.0.1', port, path: `/assets/${file.id}`, headers: bearer(admin) }, (response) => {
        expect(response.statusCode).toBe(200);
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => (error.message.includes('aborted') || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    });
    await eventually(async () => expect(await openFilesUnder(t.uploads)).toEqual([]), 10_000, 20);
    expect(seen).toEqual([]);
    await t.request.get('/server/ping').expect(200);
  });
});
