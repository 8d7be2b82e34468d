import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { titleFromFilename } from '../../../server/files/metadata/extract-metadata.ts';
import { readExif } from '../../../server/files/metadata/read-exif.ts';
import { readIcc, readIptc } from '../../../server/files/metadata/read-iptc-icc.ts';
import { isAllowedType, sniffType } from '../../../server/files/metadata/sniff-type.ts';

describe('file metadata', () => {
  it('reads the kept EXIF tags and leaves GPS out', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Maker', Model: 'M1', Artist: 'Ann' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    const exif = readExif((await sharp(jpeg).metadata()).exif);
    expect(exif).toMatchObject({ Make: 'Maker', Model: 'M1', Artist: 'Ann' });
    expect(JSON.stringify(exif)).not.toMatch(/GPS|51/);
    expect(readExif(Buffer.from('Exif\0\0garbage that is not tiff'))).toEqual({});
  });

  it('reads IPTC datasets (keywords as a list) and ICC descriptions', async () => {
    const dataset = (number: number, text: string) => Buffer.concat([Buffer.from([0x1c, 2, number, 0, Buffer.byteLength(text)]), Buffer.from(text)]);
    const iptc = Buffer.concat([Buffer.from('Photoshop 3.0\0'), dataset(120, 'A caption'), dataset(25, 'sea'), dataset(25, 'sky'), dataset(80, 'Bob')]);
    expect(readIptc(iptc)).toEqual({ Caption: 'A caption', Keywords: ['sea', 'sky'], Byline: 'Bob' });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).withIccProfile('p3').png().toBuffer();
    expect(readIcc((await sharp(png).metadata()).icc)).toMatchObject({ colorSpace: 'RGB', description: expect.stringMatching(/P3/) });
    expect(readIcc(Buffer.alloc(10))).toEqual({});
  });

  it('never throws on damaged EXIF, IPTC or ICC blocks (truncated, bit-flipped, random)', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().withExif({ IFD0: { Make: 'Maker', Artist: 'Ann' } }).withIccProfile('p3').toBuffer();
    const info = await sharp(jpeg).metadata();
    const dataset = (number: number, text: string) => Buffer.concat([Buffer.from([0x1c, 2, number, 0, Buffer.byteLength(text)]), Buffer.from(text)]);
    const iptc = Buffer.concat([Buffer.from('Photoshop 3.0\0'), dataset(120, 'A caption'), dataset(25, 'sea')]);
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const damage = (block: Buffer): Buffer => {
      const copy = Buffer.from(block.subarray(0, Math.floor(random() * (block.length + 1))));
      for (let flips = 0; flips < 4 && copy.length > 0; flips++) copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
      return copy;
    };
    for (let round = 0; round < 500; round++) {
      expect(() => readExif(damage(info.exif!))).not.toThrow();
      expect(() => readIcc(damage(info.icc!))).not.toThrow();
      expect(() => readIptc(damage(iptc))).not.toThrow();
    }
    // A dataset claiming more bytes than the block holds.
    expect(readIptc(Buffer.from([0x1c, 2, 120, 0xff, 0xff, 1, 2]))).toEqual({});
    expect(readIptc(Buffer.concat([dataset(120, 'Café')]))).toEqual({ Caption: 'Café' });
  });

  it('sniffs types from content, never from the declared type, and detects text charsets', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await sniffType(png, true, 'text/plain')).toEqual({ type: 'image/png', charset: null, extension: 'png' });
    expect(await sniffType(Buffer.from('a,b\n1,2\n'), true, 'text/csv')).toEqual({ type: 'text/csv', charset: 'us-ascii', extension: null });
    expect(await sniffType(Buffer.from('héllo'), true, 'image/png')).toEqual({ type: 'text/plain', charset: 'utf-8', extension: null });
    expect(await sniffType(Buffer.from([0, 1, 2, 255]), true, 'image/png')).toEqual({ type: 'application/octet-stream', charset: null, extension: null });
    // A multi-byte character cut at the end of a partial head is still text.
    expect((await sniffType(Buffer.from('abcé').subarray(0, 4), false, undefined)).type).toBe('text/plain');
  });

  it('matches MIME allow-list patterns', () => {
    expect(isAllowedType('image/png', ['image/*'])).toBe(true);
    expect(isAllowedType('application/pdf', ['image/*', 'text/plain'])).toBe(false);
    expect(isAllowedType('application/pdf', ['*/*'])).toBe(true);
  });

  it('makes titles from file names', () => {
    expect(titleFromFilename('my-summer_photo.final.jpg')).toBe('My Summer Photo Final');
    expect(titleFromFilename('.env')).toBe('.env');
  });
});
