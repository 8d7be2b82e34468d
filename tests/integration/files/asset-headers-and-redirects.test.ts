import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { bearer, binaryBody, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

/** docs/files.md: the sandboxing Content-Security-Policy on every asset answer. */
const SANDBOX_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

describe('the sandboxing Content-Security-Policy on every asset response', () => {
  let t: FilesTestApp;
  let admin: string;
  let htmlId: string;
  let pngId: string;

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
    const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
    htmlId = (await t.request.post('/files').set(bearer(admin)).attach('file', html, { filename: 'page.html', contentType: 'text/html' }).expect(200)).body.data.id;
    pngId = (await t.request.post('/files').set(bearer(admin)).attach('file', await pngImage(40, 20), 'image.png').expect(200)).body.data.id;
  });
  afterAll(() => t.close());

  const expectSandboxed = (response: { status: number; headers: Record<string, string> }, status: number) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-security-policy']).toBe(SANDBOX_POLICY);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  };

  it('on an uploaded HTML file: inline, download, range, HEAD and 304', async () => {
    const inline = await binaryBody(t.request.get(`/assets/${htmlId}`).set(bearer(admin)));
    expectSandboxed(inline, 200);
    expect(inline.headers['content-type']).toMatch(/^text\/html/);
    expectSandboxed(await binaryBody(t.request.get(`/assets/${htmlId}?download`).set(bearer(admin))), 200);
    expectSandboxed(await binaryBody(t.request.get(`/assets/${htmlId}`).set(bearer(admin)).set('Range', 'bytes=0-9')), 206);
    expectSandboxed(await t.request.head(`/assets/${htmlId}`).set(bearer(admin)), 200);
    expectSandboxed(await t.request.get(`/assets/${htmlId}`).set(bearer(admin)).set('If-None-Match', inline.headers.etag!), 304);
  });

  it('on a transformed image, made and then served from the transform cache', async () => {
    expectSandboxed(await binaryBody(t.request.get(`/assets/${pngId}?width=10`).set(bearer(admin))), 200);
    expectSandboxed(await binaryBody(t.request.get(`/assets/${pngId}?width=10`).set(bearer(admin))), 200);
    expectSandboxed(await binaryBody(t.request.get(`/assets/${pngId}?width=10&format=webp`).set(bearer(admin))), 200);
  });
});

describe('the three-redirect cap on imports', () => {
  let t: FilesTestApp;
  let admin: string;
  let remote: Server;
  let remoteUrl: string;
  const hits: string[] = [];

  beforeAll(async () => {
    t = await createFilesTestApp({ FILES_IMPORT_ALLOWED_HOSTS: '127.0.0.1', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', FILES_IMPORT_TIMEOUT: '10s' });
    admin = await t.login();
    const png = await pngImage(30, 30);
    // /hop/N redirects to /hop/N-1 (relative and absolute Locations alternate); /hop/0 is the image.
    remote = createServer((req, res) => {
      hits.push(req.url ?? '');
      const match = /^\/hop\/(\d+)$/.exec(req.url ?? '');
      if (!match) return void res.writeHead(404).end();
      const left = Number(match[1]);
      if (left === 0) return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
      const location = left % 2 === 0 ? `/hop/${left - 1}` : `${remoteUrl}/hop/${left - 1}`;
      res.writeHead(left % 3 === 0 ? 301 : 302, { Location: location }).end();
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    remote.closeAllConnections();
    await new Promise((resolve) => remote.close(resolve));
    await t.close();
  });

  it('follows up to three redirects', async () => {
    hits.length = 0;
    const file = (await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/hop/3` }).expect(200)).body.data;
    expect(file).toMatchObject({ type: 'image/png', width: 30, height: 30 });
    expect(hits).toEqual(['/hop/3', '/hop/2', '/hop/1', '/hop/0']);
  });

  it('refuses a fourth with 400 naming url, without fetching further, and stores nothing', async () => {
    const before = { files: await t.storedFiles(), rows: await t.fileCount() };
    hits.length = 0;
    const refused = await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/hop/4` }).expect(400);
    expect(refused.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', field: 'url' });
    expect(refused.body.errors[0].message).toBe('Could not fetch "url": more than 3 redirects.');
    expect(hits).toEqual(['/hop/4', '/hop/3', '/hop/2', '/hop/1']);
    expect(await t.storedFiles()).toEqual(before.files);
    expect(await t.fileCount()).toBe(before.rows);
  });
});
