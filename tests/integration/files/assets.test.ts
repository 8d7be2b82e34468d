import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithExif, pixelAt, pngImage, twoColourImage } from '../../helpers/images.ts';
import { bearer, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

/** supertest buffers binary bodies only when asked to. */
const binary = (response: { body: unknown }) => response.body as Buffer;

describe('GET /assets/:id', () => {
  let t: FilesTestApp;
  let admin: string;
  let pngId: string;
  let png: Buffer;
  let photoId: string;
  let textId: string;

  const upload = async (data: Buffer, filename: string, contentType?: string) =>
    (await t.request.post('/files').set(bearer(admin)).attach('file', data, { filename, contentType }).expect(200)).body.data.id as string;
  const asset = (path: string) => t.request.get(path).set(bearer(admin)).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

  beforeAll(async () => {
    t = await createFilesTestApp({ ASSETS_TRANSFORM_IMAGE_MAX_DIMENSION: '1000' });
    admin = await t.login();
    png = await pngImage(400, 300);
    pngId = await upload(png, 'blue.png');
    photoId = await upload(await jpegWithExif(640, 480), 'photo.jpg');
    textId = await upload(Buffer.from('0123456789abcdefghij'), 'digits.txt', 'text/plain');
  });
  afterAll(() => t.close());

  it('streams the original with type, length, ETag, Cache-Control and inline disposition', async () => {
    const response = await asset(`/assets/${pngId}`).expect(200);
    expect(binary(response)).toEqual(png);
    expect(response.headers).toMatchObject({ 'content-type': 'image/png', 'content-length': String(png.length), 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff' });
    expect(response.headers['content-disposition']).toBe('inline; filename="blue.png"');
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const etag = response.headers.etag!;
    expect(etag).toMatch(/^"/);
    await asset(`/assets/${pngId}`).set('If-None-Match', etag).expect(304);
    const download = await asset(`/assets/${pngId}?download`).expect(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="blue.png"');
  });

  it('serves byte ranges (206) and refuses ranges outside the file (416)', async () => {
    const partial = await asset(`/assets/${textId}`).set('Range', 'bytes=2-5').expect(206);
    expect(binary(partial).toString()).toBe('2345');
    expect(partial.headers['content-range']).toBe('bytes 2-5/20');
    expect(partial.headers['content-length']).toBe('4');
    expect(binary(await asset(`/assets/${textId}`).set('Range', 'bytes=-3').expect(206)).toString()).toBe('hij');
    expect(binary(await asset(`/assets/${textId}`).set('Range', 'bytes=15-').expect(206)).toString()).toBe('fghij');
    const outside = await t.request.get(`/assets/${textId}`).set(bearer(admin)).set('Range', 'bytes=50-60').expect(416);
    expect(outside.headers['content-range']).toBe('bytes */20');
    expect(outside.body.errors[0].extensions.code).toBe('RANGE_NOT_SATISFIABLE');
  });

  it('answers HEAD with the headers only', async () => {
    const response = await t.request.head(`/assets/${pngId}`).set(bearer(admin)).expect(200);
    expect(response.headers['content-length']).toBe(String(png.length));
    expect(response.headers['content-type']).toBe('image/png');
  });

  it('resizes with every fit', async () => {
    const sizes: Record<string, [number, number]> = { cover: [100, 100], contain: [100, 100], inside: [100, 75], outside: [133, 100] };
    for (const [fit, [width, height]] of Object.entries(sizes)) {
      const response = await asset(`/assets/${pngId}?width=100&height=100&fit=${fit}&format=png`).expect(200);
      const info = await sharp(binary(response)).metadata();
      expect([fit, info.width, info.height]).toEqual([fit, width, height]);
    }
    const wide = await sharp(binary(await asset(`/assets/${pngId}?width=800&format=png`).expect(200))).metadata();
    expect(wide.width).toBe(800);
    const kept = await sharp(binary(await asset(`/assets/${pngId}?width=800&withoutEnlargement=true&format=png`).expect(200))).metadata();
    expect(kept.width).toBe(400);
  });

  it('writes each format and uses quality', async () => {
    for (const [format, type] of [['jpeg', 'image/jpeg'], ['png', 'image/png'], ['webp', 'image/webp'], ['tiff', 'image/tiff'], ['avif', 'image/avif']] as const) {
      const response = await asset(`/assets/${photoId}?width=64&format=${format}`).expect(200);
      expect(response.headers['content-type']).toBe(type);
      expect((await sharp(binary(response)).metadata()).format).toBe(format === 'avif' ? 'heif' : format);
    }
    const low = binary(await asset(`/assets/${photoId}?width=300&format=jpeg&quality=5`).expect(200));
    const high = binary(await asset(`/assets/${photoId}?width=300&format=jpeg&quality=95`).expect(200));
    expect(low.length).toBeLessThan(high.length);
  });

  it('negotiates format=auto from Accept: AVIF, then WebP, then the source format', async () => {
    const avif = await asset(`/assets/${pngId}?width=50`).set('Accept', 'image/avif,image/webp,*/*').expect(200);
    expect(avif.headers['content-type']).toBe('image/avif');
    expect(avif.headers.vary).toMatch(/Accept/);
    expect((await asset(`/assets/${pngId}?width=50&format=auto`).set('Accept', 'image/webp,*/*').expect(200)).headers['content-type']).toBe('image/webp');
    expect((await asset(`/assets/${pngId}?width=50`).set('Accept', 'image/*').expect(200)).headers['content-type']).toBe('image/png');
    expect((await asset(`/assets/${photoId}?width=50`).set('Accept', '*/*').expect(200)).headers['content-type']).toBe('image/jpeg');
  });

  // Issue 31, item 9 (Directus's common/assets/format suite): a client that names neither AVIF nor WebP gets PNG.
  it('answers format=auto of an AVIF source without a matching Accept as PNG, with one as AVIF', async () => {
    const avifId = await upload(await sharp(png).avif().toBuffer(), 'blue.avif');
    const plain = await t.request.get(`/assets/${avifId}?format=auto`).set(bearer(admin)).unset('Accept').buffer(true).expect(200);
    expect(plain.headers['content-type']).toBe('image/png');
    expect((await asset(`/assets/${avifId}?format=auto`).set('Accept', 'image/avif').expect(200)).headers['content-type']).toBe('image/avif');
    expect((await asset(`/assets/${avifId}`).expect(200)).headers['content-type']).toBe('image/avif');
  });

  it('applies allow-listed sharp operations and refuses others', async () => {
    const flipped = binary(await asset(`/assets/${pngId}?transforms=${encodeURIComponent('[["rotate",90],["grayscale"]]')}&format=png`).expect(200));
    const info = await sharp(flipped).metadata();
    expect([info.width, info.height]).toEqual([300, 400]);
    const [r, g, b] = await pixelAt(flipped, 10, 10);
    expect(r).toBe(g);
    expect(g).toBe(b);
    const refused = await t.request.get(`/assets/${pngId}?transforms=${encodeURIComponent('[["composite",[]]]')}`).set(bearer(admin)).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field: 'transforms' });
    const badArgs = await t.request.get(`/assets/${pngId}?transforms=${encodeURIComponent('[["blur","lots"]]')}`).set(bearer(admin)).expect(400);
    expect(badArgs.body.errors[0].extensions.code).toBe('ILLEGAL_ASSET_TRANSFORMATION');
  });

  it('crops cover around the focal point', async () => {
    const id = await upload(await twoColourImage(400, 200), 'halves.png');
    // Without a focal point the centre is kept: both colours meet in the middle.
    const centre = binary(await asset(`/assets/${id}?width=100&height=100&fit=cover&format=png`).expect(200));
    expect(await pixelAt(centre, 5, 50)).toEqual([255, 0, 0]);
    expect(await pixelAt(centre, 95, 50)).toEqual([0, 0, 255]);
    await t.request.patch(`/files/${id}`).set(bearer(admin)).send({ focal_point_x: 350, focal_point_y: 100 }).expect(200);
    const right = binary(await asset(`/assets/${id}?width=100&height=100&fit=cover&format=png`).expect(200));
    expect(await pixelAt(right, 5, 50)).toEqual([0, 0, 255]);
    await t.request.patch(`/files/${id}`).set(bearer(admin)).send({ focal_point_x: 20, focal_point_y: 100 }).expect(200);
    const left = binary(await asset(`/assets/${id}?width=100&height=100&fit=cover&format=png`).expect(200));
    expect(await pixelAt(left, 95, 50)).toEqual([255, 0, 0]);
  });

  it('refuses outputs beyond the size cap and bad parameters, naming them', async () => {
    const big = await t.request.get(`/assets/${pngId}?width=1001`).set(bearer(admin)).expect(400);
    expect(big.body.errors[0].extensions).toMatchObject({ code: 'ILLEGAL_ASSET_TRANSFORMATION', field: 'width' });
    // An input over the pixel cap (1000² here) is stored and served, but never transformed.
    const huge = await upload(await pngImage(1100, 1000), 'huge.png');
    expect(binary(await asset(`/assets/${huge}`).expect(200)).length).toBeGreaterThan(0);
    const refused = await t.request.get(`/assets/${huge}?width=100`).set(bearer(admin)).expect(400);
    expect(refused.body.errors[0].extensions.code).toBe('ILLEGAL_ASSET_TRANSFORMATION');
    // An output over the cap is refused even when no size was asked for (a rotation grows the canvas).
    const square = await upload(await pngImage(990, 990), 'square.png');
    const rotated = await t.request.get(`/assets/${square}?transforms=${encodeURIComponent('[["rotate",45]]')}`).set(bearer(admin)).expect(400);
    expect(rotated.body.errors[0].extensions.code).toBe('ILLEGAL_ASSET_TRANSFORMATION');
    for (const [query, field] of [['width=-1', 'width'], ['fit=stretch', 'fit'], ['quality=101', 'quality'], ['format=bmp', 'format'], ['transforms=nope', 'transforms']]) {
      const response = await t.request.get(`/assets/${pngId}?${query}`).set(bearer(admin)).expect(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY', field });
    }
  });

  it('caches transformed copies in storage and serves them again with the same ETag', async () => {
    const first = await asset(`/assets/${pngId}?width=123&format=webp`).expect(200);
    const cached = (await t.storedFiles()).filter((file) => file.startsWith(`.transforms/${pngId}/`));
    expect(cached.length).toBeGreaterThan(0);
    const second = await asset(`/assets/${pngId}?width=123&format=webp`).expect(200);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(binary(second)).toEqual(binary(first));
    await asset(`/assets/${pngId}?width=123&format=webp`).set('If-None-Match', first.headers.etag!).expect(304);
  });

  it('accepts a trailing file name, and answers identical concurrent transformations alike with one cached copy', async () => {
    expect(binary(await asset(`/assets/${pngId}/blue.png`).expect(200))).toEqual(png);
    const cachedCopies = async () => (await t.storedFiles()).filter((file) => file.startsWith(`.transforms/${photoId}/`)).length;
    const before = await cachedCopies();
    const responses = await Promise.all(Array.from({ length: 6 }, () => asset(`/assets/${photoId}?width=77&quality=61&format=jpeg`).expect(200)));
    expect(new Set(responses.map((response) => response.headers.etag)).size).toBe(1);
    expect(new Set(responses.map((response) => binary(response).toString('base64'))).size).toBe(1);
    expect(await cachedCopies()).toBe(before + 1);
  });

  it('serves the original of a non-image even when a transformation is asked for', async () => {
    const response = await asset(`/assets/${textId}?width=10`).expect(200);
    expect(binary(response).toString()).toBe('0123456789abcdefghij');
  });
});
