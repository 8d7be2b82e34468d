import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3StorageDriver } from '../../../server/files/storage/s3-driver.ts';
import { jpegWithExif, pngImage, truncated } from '../../helpers/images.ts';
import { startS3Server, type S3TestServer } from '../../helpers/s3-server.ts';
import { bearer, binaryBody, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

describe('S3 storage (against s3rver)', () => {
  let s3: S3TestServer;
  let t: FilesTestApp;
  let admin: string;

  const objectKeys = async () => ((await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((object) => object.Key!).sort();

  beforeAll(async () => {
    s3 = await startS3Server();
    // Uploads go to the first location (s3); a second, local location stays readable.
    t = await createFilesTestApp({ STORAGE_LOCATIONS: 'cloud,local', ...s3.env('cloud'), STORAGE_CLOUD_ROOT: 'site-a', FILES_MAX_UPLOAD_SIZE: '100kb' });
    admin = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('writes, stats, reads ranges and deletes objects through the driver', async () => {
    const driver = new S3StorageDriver({ name: 'cloud', driver: 's3', bucket: s3.bucket, root: 'driver', endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    await driver.write('a/b.txt', Readable.from([Buffer.from('hello '), Buffer.from('world')]), 'text/plain');
    expect(await driver.stat('a/b.txt')).toEqual({ size: 11 });
    expect(Buffer.concat(await (await driver.read('a/b.txt')).toArray()).toString()).toBe('hello world');
    expect(Buffer.concat(await (await driver.read('a/b.txt', { start: 6, end: 10 })).toArray()).toString()).toBe('world');
    await driver.write('a/c.txt', Readable.from([Buffer.from('x')]));
    await driver.deletePrefix('a/');
    expect(await driver.stat('a/b.txt')).toBeNull();
    expect(await driver.stat('a/c.txt')).toBeNull();
    await driver.delete('missing.txt');
    // A failing source leaves no object.
    const failing = new Readable({ read() {} });
    failing.push(Buffer.from('partial'));
    setTimeout(() => failing.destroy(new Error('client went away')), 20);
    await expect(driver.write('broken.txt', failing)).rejects.toThrow();
    expect(await driver.stat('broken.txt')).toBeNull();
    driver.destroy();
  });

  it('stores uploads in the bucket under the location root and serves them with ranges and transforms', async () => {
    const jpeg = await jpegWithExif(200, 100);
    const file = (await t.request.post('/files').set(bearer(admin)).attach('file', jpeg, 'photo.jpg').expect(200)).body.data;
    expect(file).toMatchObject({ storage: 'cloud', filename_disk: `${file.id}.jpg`, width: 200, height: 100, type: 'image/jpeg' });
    expect(file.metadata.exif.Make).toBe('Tessera Optics');
    expect(await objectKeys()).toContain(`site-a/${file.id}.jpg`);
    expect(await t.storedFiles()).toEqual([]);

    expect((await binaryBody(t.request.get(`/assets/${file.id}`).set(bearer(admin))).expect(200)).body).toEqual(jpeg);
    const range = await binaryBody(t.request.get(`/assets/${file.id}`).set(bearer(admin)).set('Range', 'bytes=0-9')).expect(206);
    expect(range.body).toEqual(jpeg.subarray(0, 10));
    expect(range.headers['content-range']).toBe(`bytes 0-9/${jpeg.length}`);
    await binaryBody(t.request.get(`/assets/${file.id}?width=50&format=webp`).set(bearer(admin))).expect(200);
    expect((await objectKeys()).some((key) => key.startsWith(`site-a/.transforms/${file.id}/`))).toBe(true);

    await t.request.delete(`/files/${file.id}`).set(bearer(admin)).expect(204);
    expect((await objectKeys()).filter((key) => key.includes(file.id))).toEqual([]);
  });

  it('leaves no object and no row when an upload to S3 fails', async () => {
    const before = { objects: await objectKeys(), rows: await t.fileCount() };
    await t.request.post('/files').set(bearer(admin)).attach('file', truncated(await pngImage(300, 300)), 'cut.png').expect(400);
    await t.request.post('/files').set(bearer(admin)).attach('file', Buffer.alloc(150 * 1024, 7), 'big.bin').expect(413);
    expect(await objectKeys()).toEqual(before.objects);
    expect(await t.fileCount()).toBe(before.rows);
  });
});
