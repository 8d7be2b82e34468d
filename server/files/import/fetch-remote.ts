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

/** The file name a download offers: Content-Disposition's, else the last path segment. */
function filenameOf(url: URL, disposition: string | null): string {
  const quoted = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
  const fromPath = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
  const name = (quoted ? decodeURIComponent(quoted) : fromPath).replace(/[\\/\0]/g, '').trim();
  return name.slice(0, 200) || url.hostname;
}

/**
 * Starts downloading `value` from an allowed host. Redirects are followed by hand (at most 3) so each hop
 * is checked against the allow-list too; the whole download is bounded by `timeoutMs`.
 */
export async function fetchRemote(value: string, options: { allowedHosts: readonly string[]; timeoutMs: number; maxSize: number }): Promise<RemoteFile> {
  if (options.allowedHosts.length === 0) throw new ForbiddenError('Importing files from URLs is disabled (FILES_IMPORT_ALLOWED_HOSTS is empty).', { field: 'url' });
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = parseUrl(value);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!isAllowedHost(url.hostname, options.allowedHosts)) throw new ForbiddenError(`Importing from ${url.hostname} is not allowed.`, { field: 'url' });
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal });
    } catch (error) {
      throw new InvalidPayloadError(`Could not fetch "url": ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}.`, { field: 'url' });
    }
    if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
      await response.body?.cancel();
      url = parseUrl(new URL(response.headers.get('location')!, url).href);
      continue;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new InvalidPayloadError(`Could not fetch "url": the server answered ${response.status}.`, { field: 'url' });
    }
    const length = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(length) && length > options.maxSize) {
      await response.body.cancel();
      throw new ContentTooLargeError(`The file at "url" is larger than the upload limit of ${options.maxSize} bytes.`, { field: 'url', limit: options.maxSize });
    }
    const stream = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    return { stream, filename: filenameOf(url, response.headers.get('content-disposition')), declaredType: response.headers.get('content-type') ?? undefined };
  }
  throw new InvalidPayloadError(`Could not fetch "url": more than ${MAX_REDIRECTS} redirects.`, { field: 'url' });
}
