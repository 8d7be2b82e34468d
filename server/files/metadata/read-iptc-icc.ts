/** IPTC (IIM record 2) datasets kept in files.metadata. */
const IPTC_DATASETS: Record<number, string> = { 5: 'ObjectName', 25: 'Keywords', 80: 'Byline', 105: 'Headline', 110: 'Credit', 115: 'Source', 116: 'CopyrightNotice', 120: 'Caption' };
const MAX_TEXT = 1024;

/** Reads the kept datasets of an IPTC block (Photoshop APP13 resources or plain IIM). Keywords repeat, so they become a list. */
export function readIptc(raw: Buffer | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!raw) return out;
  for (let at = 0; at + 5 <= raw.length; at++) {
    if (raw[at] !== 0x1c || raw[at + 1] !== 2) continue;
    const dataset = raw[at + 2]!;
    const length = raw.readUInt16BE(at + 3);
    const name = IPTC_DATASETS[dataset];
    if (name && at + 5 + length <= raw.length) {
      const value = raw.subarray(at + 5, at + 5 + Math.min(length, MAX_TEXT)).toString('utf8').trim();
      if (name === 'Keywords') out.Keywords = [...((out.Keywords as string[] | undefined) ?? []), value];
      else out[name] = value;
    }
    at += 4 + length;
  }
  return out;
}

/** The facts of an ICC profile kept in files.metadata: its description, colour space and version. */
export function readIcc(raw: Buffer | undefined): Record<string, string> {
  if (!raw || raw.length < 132) return {};
  const out: Record<string, string> = {};
  try {
    out.colorSpace = raw.subarray(16, 20).toString('latin1').trim();
    out.version = `${raw[8]}.${(raw[9]! >> 4) & 0xf}`;
    const tags = raw.readUInt32BE(128);
    for (let index = 0; index < Math.min(tags, 100); index++) {
      const entry = 132 + index * 12;
      if (raw.subarray(entry, entry + 4).toString('latin1') !== 'desc') continue;
      const offset = raw.readUInt32BE(entry + 4);
      const type = raw.subarray(offset, offset + 4).toString('latin1');
      if (type === 'desc') {
        const length = raw.readUInt32BE(offset + 8);
        out.description = raw.subarray(offset + 12, offset + 12 + Math.min(length, MAX_TEXT)).toString('latin1').replace(/\0[\s\S]*$/, '');
      } else if (type === 'mluc') {
        const length = raw.readUInt32BE(offset + 20);
        const start = offset + raw.readUInt32BE(offset + 24);
        const text = raw.subarray(start, start + Math.min(length, MAX_TEXT));
        out.description = Buffer.from(text).swap16().toString('utf16le').replace(/\0[\s\S]*$/, '');
      }
    }
  } catch {
    // A malformed profile: keep what was read.
  }
  return out;
}
