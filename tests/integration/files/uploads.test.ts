import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animatedGif, jpegWithExif, pngImage, truncated } from '../../helpers/images.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

describe('POST /files (multipart uploads)', () => {
  let t: FilesTestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createFilesTestApp({ FILES_MAX_UPLOAD_SIZE: '200kb' });
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('stores an image with metadata from its content, not from the client', async () => {
    const jpeg = await jpegWithExif(320, 200);
    const response = await t.request
      .post('/files')
      .set(bearer(admin))
      .field('description', 'A test photo')
      .field('tags', '["one","two"]')
      .attach('file', jpeg, { filename: 'summer_holiday-photo.jpg', contentType: 'application/pdf' })
      .expect(200);
    const file = response.body.data;
    expect(file).toMatchObject({
      type: 'image/jpeg',
      filesize: String(jpeg.length),
      width: 320,
      height: 200,
      title: 'Summer Holiday Photo',
      filename_download: 'summer_holiday-photo.jpg',
      filename_disk: `${file.id}.jpg`,
      storage: 'local',
      description: 'A test photo',
      tags: ['one', 'two'],
    });
    expect(file.metadata.exif).toMatchObject({ Make: 'Tessera Optics', Model: 'T-1', Copyright: 'Test Photographer' });
    expect(file.metadata.icc).toMatchObject({ description: 'sRGB', colorSpace: 'RGB' });
    expect(file.uploaded_by).toBeTruthy();
    expect(file.uploaded_on).toBeTruthy();
    expect(await readFile(path.join(t.uploads, file.filename_disk))).toEqual(jpeg);
  });

  it('uploads several files at once, each with the fields sent before it, in one transaction', async () => {
    const response = await t.request
      .post('/files')
      .set(bearer(admin))
      .field('title', 'First')
      .attach('file', await pngImage(10, 10), 'a.png')
      .field('title', 'Second')
      .attach('file', Buffer.from('hello, world\n'), { filename: 'notes.txt', contentType: 'text/plain' })
      .expect(200);
    const [first, second] = response.body.data;
    expect(first).toMatchObject({ title: 'First', type: 'image/png', width: 10, height: 10 });
    expect(second).toMatchObject({ title: 'Second', type: 'text/plain', charset: 'us-ascii', width: null, filesize: '13' });
  });

  it('records the duration of animations and the frame count', async () => {
    const file = (await t.request.post('/files').set(bearer(admin)).attach('file', await animatedGif(), 'spinner.gif').expect(200)).body.data;
    expect(file).toMatchObject({ type: 'image/gif', width: 20, height: 20, duration: 600, filename_disk: `${file.id}.gif` });
    expect(file.metadata).toMatchObject({ format: 'gif', pages: 3 });
  });

  it('refuses bad uploads with a clear 4xx and leaves nothing on disk and no row', async () => {
    const before = { files: await t.storedFiles(), rows: await t.fileCount() };
    const empty = await t.request.post('/files').set(bearer(admin)).attach('file', Buffer.alloc(0), 'empty.png').expect(400);
    expect(empty.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'file' });

    const tooLarge = await t.request.post('/files').set(bearer(admin)).attach('file', Buffer.alloc(300 * 1024, 1), 'big.bin').expect(413);
    expect(tooLarge.body.errors[0].extensions).toMatchObject({ code: 'CONTENT_TOO_LARGE', field: 'file' });

    const cut = await t.request.post('/files').set(bearer(admin)).attach('file', truncated(await jpegWithExif(300, 300)), 'cut.jpg').expect(400);
    expect(cut.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'file' });
    expect(cut.body.errors[0].message).toMatch(/truncated or corrupt/);

    // The second file fails: the first one's content and row go too.
    await t.request.post('/files').set(bearer(admin)).attach('file', await pngImage(5, 5), 'ok.png').attach('file', truncated(await pngImage(200, 200)), 'bad.png').expect(400);

    const noFile = await t.request.post('/files').set(bearer(admin)).field('title', 'nothing').expect(400);
    expect(noFile.body.errors[0].extensions.field).toBe('file');
    // A JSON body creates a row without content (tests/integration/http/directus-files.test.ts); it needs a name.
    expect((await t.request.post('/files').set(bearer(admin)).send({ title: 'json', storage: 'local' }).expect(400)).body.errors[0].extensions.field).toBe('filename_download');
    await t.request.post('/files').set(bearer(admin)).set('Content-Type', 'text/plain').send('plain text').expect(415);

    const serverField = await t.request.post('/files').set(bearer(admin)).field('filesize', '1').attach('file', await pngImage(5, 5), 'ok.png').expect(400);
    expect(serverField.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'filesize' });

    expect(await t.storedFiles()).toEqual(before.files);
    expect(await t.fileCount()).toBe(before.rows);
  });

  it('refuses anonymous uploads before reading the body', async () => {
    const before = await t.fileCount();
    await t.request.post('/files').attach('file', await pngImage(5, 5), 'ok.png').expect(403);
    expect(await t.fileCount()).toBe(before);
  });
});
