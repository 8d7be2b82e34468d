import exifr from 'exifr';
import { parse as parseIccProfile } from 'icc';

/** IPTC (IIM record 2) datasets kept in files.metadata, by exifr's names. */
const IPTC_DATASETS = ['ObjectName', 'Keywords', 'Byline', 'Headline', 'Credit', 'Source', 'CopyrightNotice', 'Caption'] as const;
const MAX_TEXT = 1024;

/** exifr's IPTC segment parser (it parses a raw APP13/IIM block, the form sharp's metadata() returns). */
const iptcParser = exifr.segmentParsers.get('iptc') as unknown as { parse(input: Uint8Array): Record<string, unknown> | undefined };

/** exifr reads IIM text as Latin-1; text that is valid UTF-8 (the common case) is decoded as such. */
function text(value: unknown): string {
  const latin1 = String(value);
  const bytes = Buffer.from(latin1, 'latin1');
  let decoded = latin1;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // not UTF-8: keep Latin-1
  }
  return decoded.trim().slice(0, MAX_TEXT);
}

/** Reads the kept datasets of an IPTC block (Photoshop APP13 resources or plain IIM) with exifr. Keywords repeat, so they become a list. */
export function readIptc(raw: Buffer | undefined): Record<string, string | string[]> {
  if (!raw || raw.length === 0) return {};
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = iptcParser.parse(raw);
  } catch {
    // A dataset running past the end of the block.
    return {};
  }
  const out: Record<string, string | string[]> = {};
  for (const name of IPTC_DATASETS) {
    const value = parsed?.[name];
    if (value === undefined) continue;
    if (name === 'Keywords') out.Keywords = (Array.isArray(value) ? value : [value]).map(text).filter(Boolean);
    else out[name] = text(Array.isArray(value) ? value[value.length - 1] : value);
  }
  return out;
}

/** The facts of an ICC profile kept in files.metadata (parsed by `icc`): its description, colour space and version. */
export function readIcc(raw: Buffer | undefined): Record<string, string> {
  if (!raw || raw.length < 132) return {};
  try {
    const profile = parseIccProfile(raw);
    const out: Record<string, string> = {};
    if (profile.colorSpace) out.colorSpace = profile.colorSpace.trim();
    if (profile.version) out.version = profile.version;
    if (profile.description) out.description = profile.description.replace(/\0[\s\S]*$/, '').slice(0, MAX_TEXT);
    return out;
  } catch {
    // A malformed profile.
    return {};
  }
}
