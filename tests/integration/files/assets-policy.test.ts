import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { bearer, binaryBody, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

describe('asset presets, the transform policy and permissions on assets', () => {
  let t: FilesTestApp;
  let admin: string;
  let editor: string;
  let publicId: string;
  let privateId: string;

  const settings = (body: Record<string, unknown>) => t.request.patch('/settings').set(bearer(admin)).send(body);

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
    const upload = async (title: string) => (await t.request.post('/files').set(bearer(admin)).field('title', title).attach('file', await pngImage(200, 100), 'image.png').expect(200)).body.data.id as string;
    publicId = await upload('public');
    privateId = await upload('private');
    const role = (await t.request.post('/roles').set(bearer(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
    await t.request.post('/users').set(bearer(admin)).send({ email: 'editor@example.com', password: 'editor-password-1', role, status: 'active' }).expect(200);
    editor = await t.login('editor@example.com', 'editor-password-1');
    await t.request
      .post('/permissions')
      .set(bearer(admin))
      .send([
        { role: null, collection: 'tessera_files', action: 'read', fields: ['id', 'title'], permissions: { title: { _eq: 'public' } } },
        { role, collection: 'tessera_files', action: 'read', fields: ['*'], permissions: { title: { _eq: 'private' } } },
      ])
      .expect(200);
  });
  afterAll(() => t.close());

  it('validates presets on save (SPEC §5) and fills quality 80', async () => {
    const cases: Array<[unknown, string]> = [
      [[{ fit: 'cover', width: 10, height: 10 }], 'storage_asset_presets[0].key'],
      [[{ key: 'Not A Slug', width: 10 }], 'storage_asset_presets[0].key'],
      [[{ key: 'thumb', fit: null }], 'storage_asset_presets[0].fit'],
      [[{ key: 'thumb', width: null }], 'storage_asset_presets[0].width'],
      [[{ key: 'thumb', height: null }], 'storage_asset_presets[0].height'],
      [[{ key: 'thumb', quality: null }], 'storage_asset_presets[0].quality'],
      [[{ key: 'thumb', quality: 101 }], 'storage_asset_presets[0].quality'],
      [[{ key: 'thumb', fit: 'stretch' }], 'storage_asset_presets[0].fit'],
      [[{ key: 'thumb', format: 'bmp' }], 'storage_asset_presets[0].format'],
      [[{ key: 'thumb', transforms: [['composite']] }], 'storage_asset_presets[0].transforms'],
      [[{ key: 'thumb' }, { key: 'thumb' }], 'storage_asset_presets[1].key'],
      ['thumb', 'storage_asset_presets'],
    ];
    for (const [presets, field] of cases) {
      const response = await settings({ storage_asset_presets: presets }).expect(400);
      expect([field, response.body.errors[0].extensions]).toEqual([field, expect.objectContaining({ code: 'INVALID_PAYLOAD', field })]);
    }
    await settings({ storage_asset_presets: [{ key: 'thumb', fit: 'cover', width: 40, height: 40 }, { key: 'wide-webp', fit: 'inside', width: 120, height: 120, format: 'webp', transforms: [['grayscale']] }] }).expect(200);
    const stored = (await t.request.get('/settings?fields=storage_asset_presets').set(bearer(admin)).expect(200)).body.data.storage_asset_presets;
    expect(stored[0]).toEqual({ key: 'thumb', fit: 'cover', width: 40, height: 40, quality: 80 });
  });

  it('serves presets by key, refuses unknown keys and mixing key with parameters', async () => {
    const thumb = await binaryBody(t.request.get(`/assets/${publicId}?key=thumb`).set(bearer(admin))).expect(200);
    const info = await sharp(thumb.body as Buffer).metadata();
    expect([info.width, info.height]).toEqual([40, 40]);
    const wide = await binaryBody(t.request.get(`/assets/${publicId}?key=wide-webp`).set(bearer(admin))).expect(200);
    expect(wide.headers['content-type']).toBe('image/webp');
    expect((await sharp(wide.body as Buffer).metadata()).width).toBe(120);
    expect((await t.request.get(`/assets/${publicId}?key=nope`).set(bearer(admin)).expect(400)).body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'key' });
    expect((await t.request.get(`/assets/${publicId}?key=thumb&width=10`).set(bearer(admin)).expect(400)).body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'key' });
  });

  it('enforces storage_asset_transform: presets allows only keys, none allows nothing but originals', async () => {
    await settings({ storage_asset_transform: 'presets' }).expect(200);
    await binaryBody(t.request.get(`/assets/${publicId}?key=thumb`).set(bearer(admin))).expect(200);
    expect((await t.request.get(`/assets/${publicId}?width=30`).set(bearer(admin)).expect(400)).body.errors[0].extensions).toMatchObject({ code: 'ILLEGAL_ASSET_TRANSFORMATION', field: 'width' });
    await settings({ storage_asset_transform: 'none' }).expect(200);
    expect((await t.request.get(`/assets/${publicId}?key=thumb`).set(bearer(admin)).expect(400)).body.errors[0].extensions.code).toBe('ILLEGAL_ASSET_TRANSFORMATION');
    await t.request.get(`/assets/${publicId}?width=30`).set(bearer(admin)).expect(400);
    await binaryBody(t.request.get(`/assets/${publicId}`).set(bearer(admin))).expect(200);
    await settings({ storage_asset_transform: 'all' }).expect(200);
    await binaryBody(t.request.get(`/assets/${publicId}?width=30`).set(bearer(admin))).expect(200);
  });

  it('needs read permission on the file: the public role reads only what its rule allows', async () => {
    const response = await binaryBody(t.request.get(`/assets/${publicId}?width=20`)).expect(200);
    expect(response.headers['cache-control']).toBe('public, no-cache');
    expect((await t.request.get(`/assets/${privateId}`).expect(403)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    // A file that does not exist looks the same as one the caller may not read.
    await t.request.get('/assets/00000000-0000-4000-8000-000000000000').expect(403);
    await t.request.get('/assets/not-a-uuid').expect(403);
  });

  it("serves the project's logo to anyone, whatever the file permissions", async () => {
    await t.request.get(`/assets/${privateId}`).expect(403);
    await t.request.patch('/settings').set(bearer(admin)).send({ project_logo: privateId }).expect(200);
    await binaryBody(t.request.get(`/assets/${privateId}?width=20`)).expect(200);
    await t.request.patch('/settings').set(bearer(admin)).send({ project_logo: null }).expect(200);
    await t.request.get(`/assets/${privateId}`).expect(403);
  });

  it('accepts the access token as ?access_token= for <img> tags, and applies the role rule', async () => {
    const response = await binaryBody(t.request.get(`/assets/${privateId}?access_token=${editor}`)).expect(200);
    expect(response.headers['cache-control']).toMatch(/^private/);
    // The editor's rule reaches only the private file; the public one is not the editor's to read.
    await t.request.get(`/assets/${publicId}`).set(bearer(editor)).expect(403);
  });
});
