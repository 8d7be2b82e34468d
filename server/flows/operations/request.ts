import { parseAllowList } from '../../outbound/address-policy.ts';
import { outboundRequest } from '../../outbound/outbound-request.ts';
import type { OperationHandler } from '../flow-types.ts';

/** Calls options.url through the outbound guard (Directus `request`); returns { status, data, headers }. */
export const request: OperationHandler = async (options, { app }) => {
  const method = String(options.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'POST') throw new Error(`"method" must be GET or POST, not ${method}.`);
  const headers: Record<string, string> = {};
  for (const entry of (Array.isArray(options.headers) ? options.headers : []) as Array<{ header?: string; value?: string }>) if (entry?.header) headers[entry.header] = String(entry.value ?? '');
  let body: string | undefined;
  if (method === 'POST' && options.body !== undefined && options.body !== null) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await outboundRequest({ url: String(options.url ?? ''), method, headers, body, allow: parseAllowList(app.config.outbound.allowedHosts), timeoutMs: 10_000, maxResponseBytes: 1024 * 1024 });
  let data: unknown = response.body;
  try {
    data = JSON.parse(response.body);
  } catch {
    // not JSON: the text is the data
  }
  if (response.status >= 400) throw Object.assign(new Error(`Request failed with status ${response.status}.`), { code: response.status });
  return { status: response.status, data };
};
