import { setTimeout as delay } from 'node:timers/promises';
import type { AppContext } from '../../app-context.ts';
import type { Logger } from '../../logger.ts';
import { parseAllowList } from '../../outbound/address-policy.ts';
import { outboundRequest } from '../../outbound/outbound-request.ts';
import type { DirectusAccountability } from '../context/accountability.ts';
import { ExtensionItemsService } from '../context/items-facade.ts';
import { tesseraCollection } from '../directus-events.ts';
import { urlAllowed, type RequestMethod, type SandboxScopes } from './sandbox-scopes.ts';

/** Who an invocation of a sandboxed handler runs for: the request, the write or the flow that caused it. */
export interface InvocationContext {
  accountability: DirectusAccountability | null;
}

const REQUEST_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 1024 * 1024;
// A sleeping handler holds its extension's queue (and a filter its write's transaction): bounded like the flows' sleep.
const MAX_SLEEP_MS = 10 * 60_000;

/**
 * The `directus:api` functions on the server thread. Each checks the scope the extension requested
 * before doing anything (the worker's own check is a convenience: code in the sandbox can reach the
 * message channel directly), so nothing that was not requested can happen.
 */
export function sandboxCapabilities(app: AppContext, scopes: SandboxScopes, logger: Logger) {
  const allow = parseAllowList(app.config.outbound.allowedHosts);
  const denied = (scope: string) => new Error(`No permission to access "${scope}": the extension did not request it in sandbox.requestedScopes.`);

  return async (name: string, args: unknown[], context: InvocationContext | undefined): Promise<unknown> => {
    switch (name) {
      case 'log': {
        if (!scopes.log) throw denied('log');
        logger.info(String(args[0]));
        return undefined;
      }
      case 'sleep': {
        if (!scopes.sleep) throw denied('sleep');
        const milliseconds = args[0];
        if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds < 0) throw new TypeError('Sleep milliseconds has to be a number of at least 0.');
        await delay(Math.min(milliseconds, MAX_SLEEP_MS));
        return undefined;
      }
      case 'request':
        return request(args[0], args[1]);
      case 'readItems': {
        if (!scopes.items) throw denied('items');
        const [collection, query] = args;
        if (typeof collection !== 'string') throw new TypeError('Collection name has to be of type string.');
        if (query !== undefined && (typeof query !== 'object' || query === null || Array.isArray(query))) throw new TypeError('Query has to be of type object.');
        const listed = scopes.items.collections.some((entry) => tesseraCollection(entry) === tesseraCollection(collection));
        if (!listed || !scopes.items.methods.includes('read')) throw new Error(`No permission to read items of "${collection}": it is not listed in sandbox.requestedScopes.items.`);
        return new ExtensionItemsService(app, collection, { accountability: context?.accountability ?? null }).readByQuery((query ?? {}) as Record<string, unknown>);
      }
      default:
        throw new Error(`"${name}" is not a function of directus:api.`);
    }
  };

  async function request(url: unknown, options: unknown): Promise<unknown> {
    if (!scopes.request) throw denied('request');
    if (typeof url !== 'string') throw new TypeError('Request url has to be of type string.');
    const given = (options ?? {}) as { method?: unknown; body?: unknown; headers?: unknown };
    if (typeof given !== 'object' || Array.isArray(given)) throw new TypeError('Request options has to be of type object.');
    const method = given.method === undefined ? 'GET' : given.method;
    if (typeof method !== 'string') throw new TypeError('Request method has to be of type string.');
    if (!scopes.request.methods.includes(method.toUpperCase() as RequestMethod)) throw new Error(`No permission to use request method "${method}".`);
    if (!urlAllowed(scopes.request.urls, url)) throw new Error(`No permission to request "${url}": it matches none of sandbox.requestedScopes.request.urls.`);
    const headers = headerRecord(given.headers);
    let body: string | undefined;
    if (typeof given.body === 'string') body = given.body;
    else if (given.body !== undefined && given.body !== null) {
      body = JSON.stringify(given.body);
      if (!Object.keys(headers).some((header) => header.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
    // Through the outbound guard, as every call Tessera makes: private addresses only when OUTBOUND_ALLOWED_HOSTS lists them.
    const response = await outboundRequest({ url, method: method.toUpperCase() as RequestMethod, headers, body, allow, timeoutMs: REQUEST_TIMEOUT_MS, maxResponseBytes: MAX_RESPONSE_BYTES });
    return { status: response.status, statusText: response.statusText, headers: response.headers, data: parsed(response.body) };
  }
}

/** Headers as an object or as `[name, value]` pairs. */
function headerRecord(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  const entries = Array.isArray(value) ? value : typeof value === 'object' ? Object.entries(value) : null;
  if (!entries) throw new TypeError('Request headers has to be an object or a list of [name, value] pairs.');
  const headers: Record<string, string> = {};
  for (const entry of entries) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || (typeof entry[1] !== 'string' && typeof entry[1] !== 'number')) throw new TypeError('Each request header needs a name and a string value.');
    headers[entry[0]] = String(entry[1]);
  }
  return headers;
}

/** The body as JSON when it is JSON, else as text (what Directus's axios hands back). */
function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
