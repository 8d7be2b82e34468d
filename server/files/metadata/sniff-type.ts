import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes are sniffed (enough for the magic numbers of office and archive formats). */
export const SNIFF_BYTES = 16 * 1024;

/** Declared types trusted for content that is text (file-type recognises binary formats only). */
const TEXTUAL_TYPES = /^(text\/[\w.+-]+|application\/(json|xml|javascript|x-ndjson|ld\+json|geo\+json|yaml|x-yaml|csv)|image\/svg\+xml)$/;

/** What the content is: its MIME type and, for text, its character set. */
export interface SniffedType {
  type: string;
  charset: string | null;
  /** The usual file extension of a recognised binary format (without the dot), else null. */
  extension: string | null;
}

/** True when `head` decodes as UTF-8 (a cut multi-byte character at the very end is allowed) and has no NUL. */
function isUtf8Text(head: Uint8Array, complete: boolean): boolean {
  if (head.includes(0)) return false;
  // Up to 3 bytes of a character may be cut off at the end of a partial head.
  for (let cut = 0; cut <= (complete ? 0 : 3); cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // try a shorter prefix
    }
  }
  return false;
}

/**
 * The type of a file from its first bytes: a binary signature (file-type), else text (UTF-8 without NUL)
 * with the client's declared type kept only when it is a textual one, else application/octet-stream.
 * The client's word never turns binary content into something else.
 */
export async function sniffType(head: Uint8Array, complete: boolean, declared: string | undefined): Promise<SniffedType> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) return { type: detected.mime, charset: null, extension: detected.ext };
  if (head.length > 0 && isUtf8Text(head, complete)) {
    const declaredType = (declared ?? '').split(';')[0]!.trim().toLowerCase();
    const type = TEXTUAL_TYPES.test(declaredType) ? declaredType : 'text/plain';
    const ascii = head.every((byte) => byte < 0x80);
    return { type, charset: ascii ? 'us-ascii' : 'utf-8', extension: null };
  }
  return { type: 'application/octet-stream', charset: null, extension: null };
}

/** True when `type` matches one of the patterns (`image/png`, `image/*`, `*\/*`). */
export function isAllowedType(type: string, patterns: readonly string[]): boolean {
  const [group] = type.split('/');
  return patterns.some((pattern) => pattern === '*/*' || pattern === type || pattern === `${group}/*`);
}
