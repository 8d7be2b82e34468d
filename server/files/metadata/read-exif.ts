import exifReader from 'exif-reader';

/** EXIF tags kept in files.metadata (name in exif-reader's IFD → our name). GPS, maker notes and thumbnails are left out. */
const IMAGE_TAGS = ['ImageDescription', 'Make', 'Model', 'Orientation', 'Software', 'DateTime', 'Artist', 'Copyright'] as const;
const PHOTO_TAGS: Record<string, string> = {
  ExposureTime: 'ExposureTime',
  FNumber: 'FNumber',
  ISOSpeedRatings: 'ISO',
  DateTimeOriginal: 'DateTimeOriginal',
  FocalLength: 'FocalLength',
  LensMake: 'LensMake',
  LensModel: 'LensModel',
};
const MAX_TEXT = 256;

type ExifValue = string | number;

/** One tag's value as stored: text (capped), a finite number (rounded), or the EXIF date text; else nothing. */
function keep(value: unknown): ExifValue | undefined {
  if (Array.isArray(value)) return keep(value[0]);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');
  // exif-reader hands back non-ASCII text as bytes; it is UTF-8 in practice.
  const text = Buffer.isBuffer(value) ? value.toString('utf8') : value;
  if (typeof text === 'string') {
    const trimmed = text.replace(/\0[\s\S]*$/, '').trim().slice(0, MAX_TEXT);
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof text === 'number' && Number.isFinite(text)) return Math.round(text * 1e6) / 1e6;
  return undefined;
}

/** Reads the kept tags of a raw EXIF block (as sharp returns it: `Exif\0\0` + a TIFF structure) with exif-reader. Bad data yields nothing. */
export function readExif(raw: Buffer | undefined): Record<string, ExifValue> {
  if (!raw || raw.length < 14) return {};
  let parsed: ReturnType<typeof exifReader>;
  try {
    parsed = exifReader(raw);
  } catch {
    return {};
  }
  const out: Record<string, ExifValue> = {};
  for (const tag of IMAGE_TAGS) {
    const value = keep(parsed.Image?.[tag]);
    if (value !== undefined) out[tag] = value;
  }
  for (const [tag, name] of Object.entries(PHOTO_TAGS)) {
    const value = keep(parsed.Photo?.[tag]);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
