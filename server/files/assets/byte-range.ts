import rangeParser from 'range-parser';
import type { ByteRange } from '../storage/storage-driver.ts';

/** `bytes=-N`: a suffix range, the one form range-parser treats differently from RFC 9110 (below). */
const SUFFIX_RANGE = /^bytes=\s*-\s*(\d{1,15})\s*$/;

/**
 * Reads a `Range` header for an object of `size` bytes with range-parser: a range to serve, `null` to serve
 * the whole (no header, another unit, several ranges, or a malformed header, which RFC 9110 §14.2 lets a
 * server ignore), or `'unsatisfiable'` (416).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  // RFC 9110 §14.1.3: a suffix longer than the file means the whole file; range-parser 1.3.0 calls it unsatisfiable.
  const suffix = SUFFIX_RANGE.exec(header.trim());
  if (suffix && Number(suffix[1]) >= size && size > 0) return { start: 0, end: size - 1 };
  const ranges = rangeParser(size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}
