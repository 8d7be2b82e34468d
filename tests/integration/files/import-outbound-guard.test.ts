import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

/** URL imports go through the outbound guard (server/outbound), not only FILES_IMPORT_ALLOWED_HOSTS. */
describe('POST /files/import behind the outbound guard', () => {
  let remote: Server;
  let remoteUrl: string;
  const hits: string[] = [];

  beforeAll(async () => {
    remote = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/note.txt') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('hello');
      if (req.url === '/to-metadata') return void res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/to-ipv6-loopback') return void res.writeHead(302, { Location: `http://[::1]:${(remote.address() as AddressInfo).port}/note.txt` }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    remote.closeAllConnections();
    await new Promise((resolve) => remote.close(resolve));
  });

  describe('with every host allowed for imports but no OUTBOUND_ALLOWED_HOSTS', () => {
    let t: FilesTestApp;
    let admin: string;
    beforeAll(async () => {
      t = await createFilesTestApp({ FILES_MIME_TYPE_ALLOW_LIST: 'text/plain', FILES_IMPORT_ALLOWED_HOSTS: '*' });
      admin = await t.login();
    });
    afterAll(() => t.close());

    it('refuses loopback, by address and by a name that resolves to it, with 403 naming url and without connecting', async () => {
      hits.length = 0;
      const port = (remote.address() as AddressInfo).port;
      for (const url of [`${remoteUrl}/note.txt`, `http://localhost:${port}/note.txt`, `http://[::ffff:127.0.0.1]:${port}/note.txt`]) {
        const response = await t.request.post('/files/import').set(bearer(admin)).send({ url });
        expect([url, response.status]).toEqual([url, 403]);
        expect(response.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', field: 'url' });
        expect(response.body.errors[0].message).toMatch(/loopback address \(allow it with OUTBOUND_ALLOWED_HOSTS\)/);
      }
      expect(hits).toEqual([]);
    });

    it('refuses private, link-local and metadata addresses', async () => {
      for (const url of ['http://10.1.2.3/a.txt', 'http://192.168.0.1/a.txt', 'http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/a.txt']) {
        const response = await t.request.post('/files/import').set(bearer(admin)).send({ url });
        expect([url, response.status, response.body.errors[0].extensions.field]).toEqual([url, 403, 'url']);
      }
    });
  });

  describe('with 127.0.0.1 in OUTBOUND_ALLOWED_HOSTS', () => {
    let t: FilesTestApp;
    let admin: string;
    beforeAll(async () => {
      t = await createFilesTestApp({ FILES_MIME_TYPE_ALLOW_LIST: 'text/plain', FILES_IMPORT_ALLOWED_HOSTS: '*', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
      admin = await t.login();
    });
    afterAll(() => t.close());

    it('imports from the allowed address', async () => {
      const file = (await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}/note.txt` }).expect(200)).body.data;
      expect(file).toMatchObject({ type: 'text/plain', filesize: '5' });
    });

    it('checks every redirect target again: metadata and IPv6 loopback are refused after an allowed first hop', async () => {
      for (const path of ['/to-metadata', '/to-ipv6-loopback']) {
        hits.length = 0;
        const response = await t.request.post('/files/import').set(bearer(admin)).send({ url: `${remoteUrl}${path}` });
        expect([path, response.status, response.body.errors[0].extensions.field]).toEqual([path, 403, 'url']);
        expect(hits).toEqual([path]);
      }
    });
  });
});
