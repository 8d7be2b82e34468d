import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithExif, pixelAt, twoColourImage } from '../../helpers/images.ts';
import { bearer, binaryBody, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];

describe('POST /files/:id/edit: the image editor writes new content under the same id', () => {
  let t: FilesTestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  /** An 80×40 PNG, left half red and right half blue. */
  const upload = async (data?: Buffer, filename = 'halves.png') => (await t.request.post('/files').set(bearer(admin)).attach('file', data ?? (await twoColourImage(80, 40)), filename).expect(200)).body.data;
  const edit = (id: string, body: object, token = admin) => t.request.post(`/files/${id}/edit`).set(bearer(token)).send(body);
  const content = (file: { filename_disk: string }) => readFile(path.join(t.uploads, file.filename_disk));

  it('rotates a quarter turn then crops the rotated picture: new size, filesize and pixels; old content and cached transforms gone', async () => {
    const file = await upload();
    await binaryBody(t.request.get(`/assets/${file.id}?width=10`).set(bearer(admin))).expect(200);
    expect((await t.storedFiles()).some((name) => name.startsWith(`.transforms/${file.id}/`))).toBe(true);

    // Turned clockwise the red left half is on top (40×80); keep its top 40×30.
    const edited = (await edit(file.id, { rotate: 90, crop: { left: 0, top: 0, width: 40, height: 30 } }).expect(200)).body.data;
    expect(edited).toMatchObject({ id: file.id, type: 'image/png', width: 40, height: 30, filename_download: 'halves.png' });
    const bytes = await content(edited);
    expect(edited.filesize).toBe(String(bytes.length));
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 40, height: 30 });
    expect(await pixelAt(bytes, 2, 2)).toEqual(RED);
    expect(await pixelAt(bytes, 37, 27)).toEqual(RED);
    const stored = await t.storedFiles();
    expect(stored.filter((name) => name.startsWith(file.id))).toEqual([edited.filename_disk]);
    expect(stored.some((name) => name.startsWith(`.transforms/${file.id}/`))).toBe(false);
    // /assets serves the new content.
    const served = (await binaryBody(t.request.get(`/assets/${file.id}`).set(bearer(admin))).expect(200)).body as Buffer;
    expect(served).toEqual(bytes);
  });

  it('flips: flop mirrors left to right, flip top to bottom; a JPEG stays a JPEG', async () => {
    const file = await upload();
    const flopped = (await edit(file.id, { flop: true }).expect(200)).body.data;
    expect(flopped).toMatchObject({ width: 80, height: 40 });
    expect(await pixelAt(await content(flopped), 5, 20)).toEqual(BLUE);
    expect(await pixelAt(await content(flopped), 75, 20)).toEqual(RED);
    // A quarter turn back (counter-clockwise): the (now) left blue half goes to the bottom.
    const turned = (await edit(file.id, { rotate: 270 }).expect(200)).body.data;
    expect(turned).toMatchObject({ width: 40, height: 80 });
    expect(await pixelAt(await content(turned), 20, 75)).toEqual(BLUE);
    expect(await pixelAt(await content(turned), 20, 5)).toEqual(RED);
    // flip mirrors top to bottom.
    const flipped = (await edit(file.id, { flip: true }).expect(200)).body.data;
    expect(await pixelAt(await content(flipped), 20, 5)).toEqual(BLUE);
    // flip runs before rotate: flipping an 80×40 red|blue picture changes nothing, then a clockwise turn puts the left half on top.
    const fresh = await upload();
    const both = (await edit(fresh.id, { flip: true, flop: true, rotate: 90 }).expect(200)).body.data;
    expect(await pixelAt(await content(both), 20, 5)).toEqual(BLUE);

    const jpeg = await upload(await jpegWithExif(60, 20), 'photo.jpg');
    const rotated = (await edit(jpeg.id, { rotate: 180 }).expect(200)).body.data;
    expect(rotated).toMatchObject({ type: 'image/jpeg', width: 60, height: 20 });
    expect((await sharp(await content(rotated)).metadata()).format).toBe('jpeg');
  });

  it('carries the focal point through the edit, takes one sent with it, and drops it when the crop cuts it away', async () => {
    const file = await upload();
    await t.request.patch(`/files/${file.id}`).set(bearer(admin)).send({ focal_point_x: 70, focal_point_y: 10 }).expect(200);
    // Clockwise quarter turn of 80×40: (x, y) → (40 − y, x).
    expect((await edit(file.id, { rotate: 90 }).expect(200)).body.data).toMatchObject({ width: 40, height: 80, focal_point_x: 30, focal_point_y: 70 });
    expect((await edit(file.id, { crop: { left: 0, top: 0, width: 40, height: 40 } }).expect(200)).body.data).toMatchObject({ focal_point_x: null, focal_point_y: null });
    expect((await edit(file.id, { crop: { left: 10, top: 10, width: 20, height: 20 }, focal_point_x: 5, focal_point_y: 15 }).expect(200)).body.data).toMatchObject({ width: 20, height: 20, focal_point_x: 5, focal_point_y: 15 });
    // A focal point alone leaves the content as it is.
    const before = (await t.request.get(`/files/${file.id}`).set(bearer(admin)).expect(200)).body.data;
    const after = (await edit(file.id, { focal_point_x: 1, focal_point_y: 2 }).expect(200)).body.data;
    expect(after).toMatchObject({ focal_point_x: 1, focal_point_y: 2, filename_disk: before.filename_disk, filesize: before.filesize });
  });

  it('answers a 400 naming the field for a bad edit, and changes nothing', async () => {
    const file = await upload();
    const cases: Array<[object, string]> = [
      [{ rotate: 45 }, 'rotate'],
      [{ flip: 'sideways' }, 'flip'],
      [{ crop: { left: 0, top: 0, width: 81, height: 10 } }, 'crop.width'],
      [{ crop: { left: 0, top: 35, width: 10, height: 10 } }, 'crop.height'],
      [{ crop: { left: -1, top: 0, width: 10, height: 10 } }, 'crop.left'],
      [{ crop: { left: 0, top: 0, width: 0, height: 10 } }, 'crop.width'],
      [{ crop: { left: 0, top: 0, width: 10 } }, 'crop.height'],
      [{ focal_point_x: 3 }, 'focal_point_y'],
      [{ rotate: 90, focal_point_x: 60, focal_point_y: 10 }, 'focal_point_x'],
    ];
    for (const [body, field] of cases) {
      const response = await edit(file.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errors[0].extensions, JSON.stringify(body)).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    }
    expect((await edit(file.id, { scale: 2 }).expect(400)).body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
    const text = (await t.request.post('/files').set(bearer(admin)).attach('file', Buffer.from('plain words'), 'notes.txt').expect(200)).body.data;
    expect((await edit(text.id, { rotate: 90 }).expect(400)).body.errors[0].extensions).toMatchObject({ field: 'file' });
    expect((await t.request.get(`/files/${file.id}`).set(bearer(admin)).expect(200)).body.data).toMatchObject({ width: 80, height: 40, filename_disk: file.filename_disk });
    expect(await pixelAt(await content(file), 5, 5)).toEqual(RED);
  });

  it('needs update permission on the file: readers and the public get a 403', async () => {
    const file = await upload();
    const role = (await t.request.post('/roles').set(bearer(admin)).send({ name: 'Reader', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/permissions').set(bearer(admin)).send({ role, collection: 'tessera_files', action: 'read', fields: ['*'] }).expect(200);
    await t.request.post('/users').set(bearer(admin)).send({ email: 'reader@example.com', password: 'reader-password-1', role, status: 'active' }).expect(200);
    const reader = await t.login('reader@example.com', 'reader-password-1');
    await edit(file.id, { rotate: 90 }, reader).expect(403);
    await t.request.post(`/files/${file.id}/edit`).send({ rotate: 90 }).expect(403);
    expect((await t.request.get(`/files/${file.id}`).set(bearer(admin)).expect(200)).body.data).toMatchObject({ width: 80, filename_disk: file.filename_disk });

    // A role that may update only the title edits pixels (the server writes the content columns and carries
    // the focal point), but cannot set a focal point itself.
    const titler = (await t.request.post('/roles').set(bearer(admin)).send({ name: 'Titler', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/permissions').set(bearer(admin)).send({ role: titler, collection: 'tessera_files', action: 'read', fields: ['*'] }).expect(200);
    await t.request.post('/permissions').set(bearer(admin)).send({ role: titler, collection: 'tessera_files', action: 'update', fields: ['title'] }).expect(200);
    await t.request.post('/users').set(bearer(admin)).send({ email: 'titler@example.com', password: 'titler-password-1', role: titler, status: 'active' }).expect(200);
    const titlerToken = await t.login('titler@example.com', 'titler-password-1');
    await edit(file.id, { rotate: 90, focal_point_x: 1, focal_point_y: 1 }, titlerToken).expect(403);
    await edit(file.id, { focal_point_x: 1, focal_point_y: 1 }, titlerToken).expect(403);
    const stillSame = (await t.request.get(`/files/${file.id}`).set(bearer(admin)).expect(200)).body.data;
    expect(stillSame).toMatchObject({ width: 80, filename_disk: file.filename_disk, focal_point_x: null });
    expect((await t.storedFiles()).filter((name) => name.startsWith(file.id))).toEqual([file.filename_disk]);
    expect((await edit(file.id, { rotate: 90 }, titlerToken).expect(200)).body.data).toMatchObject({ width: 40, height: 80 });
  });
});
