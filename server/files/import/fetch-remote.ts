import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ContentTooLargeError, ForbiddenError, InvalidPayloadError } from '../../errors.ts';

const MAX_REDIRECTS = 3;

/** A remote file being downloaded. */
export interface RemoteFile {
  stream: Readable;
  filename: string;
  declaredType: string | undefined;
}

/** True when `hostname` is on the allow-list (`cdn.example.com`, `*.example.com`, or `*` for any host). */
export function isAllowedHost(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((pattern) => pattern === '*' || pattern === host || (pattern.startsWith('*.') && host.endsWith(pattern.slice(1))));
}

function parseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidPayloadError('"url" must be an absolute http:// or https:// URL.', { field: 'url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidPayloadError('"url" must be an absolute http:// or https:// URL.', { field: 'url' });
  return url;
}

/** decodeURIComponent, but malformed percent-encoding (`%E0%A4%A`) is a 400 naming `url` instead of a URIError. */
function decodeName(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new InvalidPayloadError('The file name of "url" has malformed percent-encoding.', { field: 'url' });
  }
}

/** The file name a download offers: Content-Disposition's, else the last path segment. */
function filenameOf(url: URL, disposition: string | null): string {
  const quoted = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
  const fromPath = decodeName(url.pathname.split('/').filter(Boolean).pop() ?? '');
  const name = (quoted ? decodeName(quoted) : fromPath).replace(/[\\/\0]/g, '').trim();
  return name.slice(0, 200) || url.hostname;
}

/**
 * Starts downloading `value` from an allowed host. Redirects are followed by hand (at most 3) so each hop
 * is checked against the allow-list too; the whole download is bounded by `timeoutMs`. The caller must
 * consume or destroy the returned stream; its timer stops when the stream closes, and every refusal
 * here cancels the response body first, so nothing is left to fail after the request has been answered.
 */
export async function fetchRemote(value: string, options: { allowedHosts: readonly string[]; timeoutMs: number; maxSize: number }): Promise<RemoteFile> {
  if (options.allowedHosts.length === 0) throw new ForbiddenError('Importing files from URLs is disabled (FILES_IMPORT_ALLOWED_HOSTS is empty).', { field: 'url' });
  let url = parseUrl(value);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The download timed out.', 'TimeoutError')), options.timeoutMs);
  let body: ReadableStream<Uint8Array> | null = null;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (!isAllowedHost(url.hostname, options.allowedHosts)) throw new ForbiddenError(`Importing from ${url.hostname} is not allowed.`, { field: 'url' });
      let response: Response;
      try {
        response = await fetch(url, { redirect: 'manual', signal: controller.signal });
      } catch (error) {
        throw new InvalidPayloadError(`Could not fetch "url": ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}.`, { field: 'url' });
      }
      body = response.body;
      if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
        await cancel(body);
        body = null;
        url = parseUrl(new URL(response.headers.get('location')!, url).href);
        continue;
      }
      if (!response.ok || !body) throw new InvalidPayloadError(`Could not fetch "url": the server answered ${response.status}.`, { field: 'url' });
      const length = Number(response.headers.get('content-length') ?? Number.NaN);
      if (Number.isFinite(length) && length > options.maxSize) throw new ContentTooLargeError(`The file at "url" is larger than the upload limit of ${options.maxSize} bytes.`, { field: 'url', limit: options.maxSize });
      const filename = filenameOf(url, response.headers.get('content-disposition'));
      const stream = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
      stream.once('close', () => clearTimeout(timer));
      return { stream, filename, declaredType: response.headers.get('content-type') ?? undefined };
    }
    throw new InvalidPayloadError(`Could not fetch "url": more than ${MAX_REDIRECTS} redirects.`, { field: 'url' });
  } catch (error) {
    clearTimeout(timer);
    await cancel(body);
    throw error;
  }
}

/** Cancels a response body nobody will read (closing its connection); a body already failed is fine. */
async function cancel(body: ReadableStream<Uint8Array> | null): Promise<void> {
  await body?.cancel().catch(() => undefined);
}
