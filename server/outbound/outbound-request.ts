import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { lazyModule } from '../lazy-module.ts';
import { refusedAddress, type OutboundAllowList } from './address-policy.ts';

// node:https brings node:tls and OpenSSL's TLS code, several MB resident: loaded with the first https call.
const loadHttps = lazyModule(() => import('node:https'));

/** An outbound call refused before any byte was sent (a private address, a bad URL, too many redirects). */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
}

/** One outbound HTTP call, the guard's limits included. */
export interface OutboundRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  allow: OutboundAllowList;
  /** Bounds the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** Bytes of the response body kept; a longer body fails the call. */
  maxResponseBytes: number;
  maxRedirects?: number;
}

/** What came back. */
export interface OutboundResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The address actually called (after redirects). */
  url: string;
}

/**
 * A DNS lookup that refuses a name when any address it resolves to is not allowed. Node connects to the
 * address returned here, so the address checked is the address called: a second, rebinding answer is
 * never asked for.
 */
function guardedLookup(hostname: string, allow: OutboundAllowList): LookupFunction {
  return (name, options, callback) => {
    dnsLookup(name, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = addresses.map((entry) => refusedAddress(entry.address, hostname, allow)).find((reason) => reason !== null);
      if (refused) return callback(new OutboundRefusedError(`Refused to call ${hostname}: ${refused}.`), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function parseTarget(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundRefusedError(`"${value}" is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError(`Only http:// and https:// URLs may be called, not ${url.protocol}.`);
  return url;
}

/**
 * A deadline `ms` from now that aborts one event-loop turn after its timer fires: timers run before
 * pending I/O, so a process starved of CPU past the deadline (a job worker at nice 10 on a saturated
 * machine) would otherwise drop an answer already waiting in its socket and report a timeout, and the
 * webhook would be sent again although it had arrived. The turn lets that answer be read first.
 */
function startDeadline(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  let cleared = false;
  const timer = setTimeout(() => setImmediate(() => cleared || controller.abort(new DOMException(`Timed out after ${ms} ms.`, 'TimeoutError'))), ms).unref();
  return {
    signal: controller.signal,
    clear() {
      cleared = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Calls a URL through the outbound guard: loopback, private, link-local and metadata addresses are
 * refused unless allowed; each redirect hop is checked again; time and response size are capped.
 */
export async function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  const deadline = startDeadline(request.timeoutMs);
  let url = parseTarget(request.url);
  let method = request.method;
  let body = request.body;
  const maxRedirects = request.maxRedirects ?? 3;
  try {
    for (let hop = 0; ; hop++) {
      const response = await send(url, method, request.headers ?? {}, body, request, deadline.signal);
      if (response.status >= 300 && response.status < 400 && response.location) {
        if (hop >= maxRedirects) throw new OutboundRefusedError(`More than ${maxRedirects} redirects.`);
        url = parseTarget(new URL(response.location, url).href);
        // As browsers do: 307/308 repeat the request, other redirects fetch the new address.
        if (response.status !== 307 && response.status !== 308) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      return { status: response.status, statusText: response.statusText, headers: response.headers, body: response.body, url: url.href };
    }
  } finally {
    deadline.clear();
  }
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  request: OutboundRequest,
  signal: AbortSignal,
): Promise<{ status: number; statusText: string; headers: OutboundResponse['headers']; body: string; location?: string }> {
  return openHop(url, method, headers, body, request.allow, signal).then(
    (res) =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxResponseBytes) {
            res.destroy();
            reject(new Error(`The response is larger than ${request.maxResponseBytes} bytes.`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), location: res.headers.location }));
        res.on('error', reject);
      }),
    (error: unknown) => Promise.reject(signal.aborted && !(error instanceof OutboundRefusedError) ? new Error(`Timed out after ${request.timeoutMs} ms.`) : error),
  );
}

/**
 * Sends one request through the guard (a literal address checked here, a name in the connection's own
 * lookup) and resolves with the response once its head has arrived; the body is left to the caller.
 * `signal` aborts the request and the response body; its reason is the rejection.
 */
export async function openHop(url: URL, method: string, headers: Record<string, string>, body: string | undefined, allow: OutboundAllowList, signal: AbortSignal): Promise<IncomingMessage> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address never goes through DNS, so it is checked here.
  if (isIP(hostname)) {
    const refused = refusedAddress(hostname, hostname, allow);
    if (refused) throw new OutboundRefusedError(`Refused to call ${hostname}: ${refused}.`);
  }
  const client = url.protocol === 'https:' ? (await loadHttps()).default : http;
  const outgoing = { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) };
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method, headers: outgoing, lookup: guardedLookup(hostname, allow), signal, agent: false }, resolve);
    req.on('error', (error) => reject(signal.aborted && !(error instanceof OutboundRefusedError) ? signal.reason : error));
    if (body !== undefined) req.write(body);
    req.end();
  });
}
