import { InvalidPayloadError } from '../../errors.ts';
import { lazyModule } from '../../lazy-module.ts';
import { loadSharp } from '../sharp-module.ts';
import type { StorageDriver } from '../storage/storage-driver.ts';

// exif-reader, exifr and icc load with the first image, like sharp.
const loadReaders = lazyModule(async () => ({ ...(await import('./read-exif.ts')), ...(await import('./read-iptc-icc.ts')) }));

/** Image types sharp reads; their width, height and embedded metadata are extracted. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff', 'image/heic', 'image/heif']);

/** The columns of tessera_files that come from the content itself. */
export interface ContentFacts {
  width: number | null;
  height: number | null;
  duration: number | null;
  metadata: Record<string, unknown> | null;
}

const NONE: ContentFacts = { width: null, height: null, duration: null, metadata: null };

/** True when sharp can read (and transform) files of this type. */
export function isTransformableImage(type: string | null | undefined): boolean {
  return type !== null && type !== undefined && IMAGE_TYPES.has(type);
}

/**
 * Reads width, height, animation length and a safe subset of EXIF, IPTC and ICC from a stored image. An
 * image that cannot be decoded (truncated, corrupt) is refused with 400; images larger than
 * `maxPixels` are stored without the decode check (they are never transformed).
 */
export async function extractMetadata(driver: StorageDriver, key: string, type: string, maxPixels: number, field: string): Promise<ContentFacts> {
  if (!isTransformableImage(type)) return NONE;
  const input = async () => (driver.localPath ? driver.localPath(key) : Buffer.concat(await (await driver.read(key)).toArray()));
  const source = await input();
  const [sharp, { readExif, readIptc, readIcc }] = await Promise.all([loadSharp(), loadReaders()]);
  try {
    const info = await sharp(source, { limitInputPixels: false }).metadata();
    const width = info.autoOrient?.width ?? info.width ?? null;
    const height = info.autoOrient?.height ?? info.height ?? null;
    if (width !== null && height !== null && width * height <= maxPixels) {
      // Decoding every pixel is the only way to find a truncated image: headers read fine.
      await sharp(source, { failOn: 'truncated', limitInputPixels: maxPixels, animated: false }).resize(16, 16, { fit: 'inside' }).raw().toBuffer();
    }
    const pages = info.pages ?? 1;
    const duration = pages > 1 && info.delay ? info.delay.reduce((sum, delay) => sum + delay, 0) : null;
    const exif = readExif(info.exif);
    const iptc = readIptc(info.iptc);
    const icc = readIcc(info.icc);
    const metadata: Record<string, unknown> = {
      format: info.format,
      space: info.space,
      channels: info.channels,
      hasAlpha: info.hasAlpha,
      ...(info.orientation ? { orientation: info.orientation } : {}),
      ...(info.density ? { density: info.density } : {}),
      ...(pages > 1 ? { pages } : {}),
      ...(Object.keys(exif).length > 0 ? { exif } : {}),
      ...(Object.keys(iptc).length > 0 ? { iptc } : {}),
      ...(Object.keys(icc).length > 0 ? { icc } : {}),
    };
    return { width, height, duration, metadata };
  } catch (error) {
    throw new InvalidPayloadError(`"${field}" is not a readable ${type} image (it may be truncated or corrupt).`, { field, reason: (error as Error).message });
  }
}

/** A readable title from a file name: `my-summer_photo.jpg` → `My Summer Photo`. */
export function titleFromFilename(filename: string): string {
  const base = filename.replace(/\.[^.]+$/, '');
  const words = base.split(/[\s._-]+/).filter(Boolean);
  if (words.length === 0) return filename;
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}
