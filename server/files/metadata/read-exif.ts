/** EXIF tags kept in files.metadata: descriptive and camera facts. GPS, maker notes and thumbnails are left out. */
const IFD0_TAGS: Record<number, string> = {
  0x010e: 'ImageDescription',
  0x010f: 'Make',
  0x0110: 'Model',
  0x0112: 'Orientation',
  0x0131: 'Software',
  0x0132: 'DateTime',
  0x013b: 'Artist',
  0x8298: 'Copyright',
};
const EXIF_TAGS: Record<number, string> = {
  0x829a: 'ExposureTime',
  0x829d: 'FNumber',
  0x8827: 'ISO',
  0x9003: 'DateTimeOriginal',
  0x920a: 'FocalLength',
  0xa433: 'LensMake',
  0xa434: 'LensModel',
};
const EXIF_IFD_POINTER = 0x8769;
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };
const MAX_TEXT = 256;

type ExifValue = string | number;

/** Reads the kept tags of a raw EXIF block (as sharp returns it: `Exif\0\0` + a TIFF structure). Bad data yields what could be read. */
export function readExif(raw: Buffer | undefined): Record<string, ExifValue> {
  if (!raw || raw.length < 14) return {};
  const tiff = raw.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? raw.subarray(6) : raw;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return {};
  const little = order === 'II';
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  const s32 = (offset: number) => (little ? tiff.readInt32LE(offset) : tiff.readInt32BE(offset));
  const out: Record<string, ExifValue> = {};

  const readValue = (type: number, count: number, at: number): ExifValue | undefined => {
    switch (type) {
      case 2:
        return tiff.subarray(at, at + Math.min(count, MAX_TEXT)).toString('utf8').replace(/\0[\s\S]*$/, '').trim();
      case 1:
      case 7:
        return tiff[at];
      case 3:
        return u16(at);
      case 4:
        return u32(at);
      case 9:
        return s32(at);
      case 5:
      case 10: {
        const numerator = type === 5 ? u32(at) : s32(at);
        const denominator = type === 5 ? u32(at + 4) : s32(at + 4);
        return denominator === 0 ? undefined : Math.round((numerator / denominator) * 1e6) / 1e6;
      }
      default:
        return undefined;
    }
  };

  const readIfd = (offset: number, tags: Record<number, string>): number | null => {
    let exifPointer: number | null = null;
    const count = u16(offset);
    for (let index = 0; index < count; index++) {
      const entry = offset + 2 + index * 12;
      if (entry + 12 > tiff.length) break;
      const tag = u16(entry);
      const type = u16(entry + 2);
      const valueCount = u32(entry + 4);
      if (tag === EXIF_IFD_POINTER) exifPointer = u32(entry + 8);
      const name = tags[tag];
      const size = TYPE_SIZES[type];
      if (!name || !size || valueCount === 0) continue;
      const at = size * valueCount <= 4 ? entry + 8 : u32(entry + 8);
      if (at + Math.min(size * valueCount, MAX_TEXT) > tiff.length) continue;
      const value = readValue(type, valueCount, at);
      if (value !== undefined && value !== '') out[name] = value;
    }
    return exifPointer;
  };

  try {
    const exifPointer = readIfd(u32(4), IFD0_TAGS);
    if (exifPointer !== null && exifPointer < tiff.length) readIfd(exifPointer, EXIF_TAGS);
  } catch {
    // A truncated block: keep what was read.
  }
  return out;
}
