import type { Readable } from 'node:stream';
import { ContentTooLargeError, ForbiddenError, InvalidPayloadError, isTesseraError } from '../../errors.ts';
import type { OutboundAllowList } from '../../outbound/address-policy.ts';
import { OutboundRedirectLimitError, openOutboundDownload, type OutboundDownload } from '../../outbound/outbound-download.ts';
import { OutboundRefusedError } from '../../outbound/outbound-request.ts';

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
 * Starts downloading `value` from an allowed host through the outbound guard (server/outbound): loopback,
 * private, link-local and metadata addresses are refused unless OUTBOUND_ALLOWED_HOSTS names them, the
 * resolved address is the one connected to, and each redirect hop (at most 3) is checked against both the
 * host allow-list and the guard. The whole download is bounded by `timeoutMs`. The caller must consume or
 * destroy the returned stream; its timer stops when the stream closes, and every refusal here closes the
 * response first, so nothing is left to fail after the request has been answered.
 */
export async function fetchRemote(value: string, options: { allowedHosts: readonly string[]; outbound: OutboundAllowList; timeoutMs: number; maxSize: number }): Promise<RemoteFile> {
  if (options.allowedHosts.length === 0) throw new ForbiddenError('Importing files from URLs is disabled (FILES_IMPORT_ALLOWED_HOSTS is empty).', { field: 'url' });
  let download: OutboundDownload;
  try {
    download = await openOutboundDownload({
      url: parseUrl(value),
      allow: options.outbound,
      timeoutMs: options.timeoutMs,
      maxRedirects: MAX_REDIRECTS,
      checkUrl: (url) => {
        if (!isAllowedHost(url.hostname, options.allowedHosts)) throw new ForbiddenError(`Importing from ${url.hostname} is not allowed.`, { field: 'url' });
      },
      parseLocation: (location, base) => parseUrl(new URL(location, base).href),
    });
  } catch (error) {
    if (isTesseraError(error)) throw error;
    if (error instanceof OutboundRedirectLimitError) throw new InvalidPayloadError(`Could not fetch "url": ${error.message}.`, { field: 'url' });
    if (error instanceof OutboundRefusedError) throw new ForbiddenError(`Importing from "url" is not allowed: ${error.message}`, { field: 'url' });
    throw new InvalidPayloadError(`Could not fetch "url": ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}.`, { field: 'url' });
  }
  const { response, url } = download;
  try {
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) throw new InvalidPayloadError(`Could not fetch "url": the server answered ${status}.`, { field: 'url' });
    const length = Number(response.headers['content-length'] ?? Number.NaN);
    if (Number.isFinite(length) && length > options.maxSize) throw new ContentTooLargeError(`The file at "url" is larger than the upload limit of ${options.maxSize} bytes.`, { field: 'url', limit: options.maxSize });
    const filename = filenameOf(url, response.headers['content-disposition'] ?? null);
    const type = response.headers['content-type'];
    return { stream: response, filename, declaredType: type ?? undefined };
  } catch (error) {
    download.done();
    response.destroy();
    throw error;
  }
}
