import type { AssetFormat } from '../../schema/system/constants.ts';

/** Formats sharp writes, and the MIME type of each. */
export const OUTPUT_TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', tiff: 'image/tiff', avif: 'image/avif', gif: 'image/gif' } as const;
export type OutputFormat = keyof typeof OUTPUT_TYPES;

const BY_TYPE: Record<string, OutputFormat> = Object.fromEntries(Object.entries(OUTPUT_TYPES).map(([format, type]) => [type, format as OutputFormat]));

/** True when the Accept header lists `type` explicitly with a non-zero q (wildcards do not count). */
function accepts(accept: string, type: string): boolean {
  return accept.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== type) return false;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/** Sources a client that did not ask for them may not display: `format=auto` writes them as PNG (transparency kept). */
const NOT_UNIVERSAL = new Set(['image/avif', 'image/webp', 'image/tiff']);

/**
 * The format to write: a named one as is; `auto` (or none) picks AVIF, then WebP when the client's Accept
 * lists them, else the source's format (PNG when sharp cannot write that). Only `auto` depends on Accept.
 * An explicit `auto` whose Accept lists neither turns an AVIF, WebP or TIFF source into PNG, as Directus
 * does: the client did not say it can show those.
 */
export function outputFormat(requested: AssetFormat | undefined, sourceType: string, accept: string, negotiate: boolean): OutputFormat {
  if (requested && requested !== 'auto') return requested;
  if (negotiate) {
    if (accepts(accept, 'image/avif')) return 'avif';
    if (accepts(accept, 'image/webp')) return 'webp';
  }
  if (requested === 'auto' && NOT_UNIVERSAL.has(sourceType)) return 'png';
  return BY_TYPE[sourceType] ?? 'png';
}
