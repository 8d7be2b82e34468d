import type { IncomingMessage } from 'node:http';
import type { OutboundAllowList } from './address-policy.ts';
import { OutboundRefusedError, openHop } from './outbound-request.ts';

/** More redirects than allowed: the request was fine, the remote server is not (callers may answer 400). */
export class OutboundRedirectLimitError extends OutboundRefusedError {
  override name = 'OutboundRedirectLimitError';
}

/** A GET through the outbound guard whose body is streamed rather than buffered (file imports). */
export interface OutboundDownloadRequest {
  url: URL;
  allow: OutboundAllowList;
  /** Bounds the whole download, redirects and body included. */
  timeoutMs: number;
  maxRedirects?: number;
  /** Called for the first URL and every redirect target before it is fetched; throws to refuse it. */
  checkUrl?: (url: URL) => void;
  /** Turns a redirect's Location into a URL, throwing for one that is not http(s). */
  parseLocation?: (location: string, base: URL) => URL;
}

export interface OutboundDownload {
  /** The final (non-redirect) response; its body is unread. */
  response: IncomingMessage;
  /** The address actually fetched (after redirects). */
  url: URL;
  /** Stops the deadline; call once the body is consumed or destroyed. */
  done(): void;
}

/**
 * Opens a download with the guard's rules: every hop's address checked and pinned, redirects (at most 3
 * by default) followed by hand and checked again, one deadline for everything. When the deadline passes
 * while the body streams, the body is destroyed with a TimeoutError.
 */
export async function openOutboundDownload(request: OutboundDownloadRequest): Promise<OutboundDownload> {
  const controller = new AbortController();
  const timeout = new DOMException('The download timed out.', 'TimeoutError');
  let current: IncomingMessage | null = null;
  const timer = setTimeout(() => {
    controller.abort(timeout);
    current?.destroy(timeout);
  }, request.timeoutMs);
  const done = () => clearTimeout(timer);
  const maxRedirects = request.maxRedirects ?? 3;
  let url = request.url;
  try {
    for (let hop = 0; ; hop++) {
      request.checkUrl?.(url);
      const response = await openHop(url, 'GET', {}, undefined, request.allow, controller.signal);
      current = response;
      const location = response.headers.location;
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.destroy();
        if (hop >= maxRedirects) throw new OutboundRedirectLimitError(`more than ${maxRedirects} redirects`);
        url = request.parseLocation ? request.parseLocation(location, url) : new URL(location, url);
        continue;
      }
      response.once('close', done);
      return { response, url, done };
    }
  } catch (error) {
    done();
    current?.destroy();
    throw error;
  }
}
