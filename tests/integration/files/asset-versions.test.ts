import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelAt, pngImage } from '../../helpers/images.ts';
import { bearer, binaryBody, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

/**
 * After a file's content changes under the same id (a replacing upload, the image editor), no client keeps
 * showing the old picture: unversioned asset URLs are revalidated on every use against an ETag tied to the
 * content, and the long-lived URLs name the file's version (docs/files.md, "Caching").
 */
describe('asset caching follows the file content', () => {
  let t: FilesTestApp;
  let admin: string;
  const BLUE = '#0000ff';
  const RED = '#ff0000';

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  const upload = async (colour: string) => (await t.request.post('/files').set(bearer(admin)).attach('file', await pngImage(40, 20, colour), 'picture.png').expect(200)).body.data;
  const get = (path: string, etag?: string) => {
    const request = t.request.get(path).set(bearer(admin));
    return binaryBody(etag ? request.set('If-None-Match', etag) : request);
  };
  const colourOf = async (bytes: Buffer) => pixelAt(bytes, 1, 1);

  for (const [label, suffix] of [
    ['the original', ''],
    ['a transformed copy', '?width=10&format=png'],
  ] as const) {
    it(`${label}: revalidated on every use; replacing the bytes changes the ETag and a conditional GET with the old one gets the new bytes`, async () => {
      const file = await upload(BLUE);
      const first = await get(`/assets/${file.id}${suffix}`).expect(200);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const old = first.headers.etag!;
      expect(await colourOf(first.body)).toEqual([0, 0, 255]);
      await get(`/assets/${file.id}${suffix}`, old).expect(304);

      await t.request.patch(`/files/${file.id}`).set(bearer(admin)).attach('file', await pngImage(40, 20, RED), 'picture.png').expect(200);
      const after = await get(`/assets/${file.id}${suffix}`, old).expect(200);
      expect(after.headers.etag).not.toBe(old);
      expect(await colourOf(after.body)).toEqual([255, 0, 0]);
      await get(`/assets/${file.id}${suffix}`, after.headers.etag).expect(304);
    });
  }

  it('the image editor: the ETag changes with the edit and the old one no longer answers 304', async () => {
    const file = await upload(BLUE);
    const before = await get(`/assets/${file.id}`).expect(200);
    await t.request.post(`/files/${file.id}/edit`).set(bearer(admin)).send({ rotate: 90 }).expect(200);
    const after = await get(`/assets/${file.id}`, before.headers.etag).expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.headers['cache-control']).toBe('private, no-cache');
  });

  it('a URL naming the current version (?modified=<modified_on>) is kept long; an old version is revalidated', async () => {
    const file = await upload(BLUE);
    const versioned = await get(`/assets/${file.id}?width=10&modified=${encodeURIComponent(file.modified_on)}`).expect(200);
    expect(versioned.headers['cache-control']).toBe('private, max-age=2592000, immutable');
    const replaced = (await t.request.patch(`/files/${file.id}`).set(bearer(admin)).attach('file', await pngImage(40, 20, RED), 'picture.png').expect(200)).body.data;
    expect(replaced.modified_on).not.toBe(file.modified_on);
    const stale = await get(`/assets/${file.id}?width=10&modified=${encodeURIComponent(file.modified_on)}`).expect(200);
    expect(stale.headers['cache-control']).toBe('private, no-cache');
    expect(await colourOf(stale.body)).toEqual([255, 0, 0]);
    const current = await get(`/assets/${file.id}?width=10&modified=${encodeURIComponent(replaced.modified_on)}`).expect(200);
    expect(current.headers['cache-control']).toBe('private, max-age=2592000, immutable');
    expect(await get(`/assets/${file.id}?modified=not-a-date`).expect(200).then((response) => response.headers['cache-control'])).toBe('private, no-cache');
  });
});
