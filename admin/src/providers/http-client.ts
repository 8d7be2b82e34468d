import type { HttpError } from '@refinedev/core';
import { forgetListPaging } from './list-paging.ts';

/** One error of the API's `{ errors: [...] }` envelope. */
export interface ApiErrorEntry {
  message: string;
  extensions?: { code?: string; field?: string; [key: string]: unknown };
}

/** An HttpError that keeps the API's code and per-field messages (Refine forms show `errors` on fields). */
export interface ApiHttpError extends HttpError {
  code?: string;
  /** The first error's extensions (e.g. a 412's `conflicts`). */
  extensions?: ApiErrorEntry['extensions'];
}

/** The API lives on the same origin as the admin (STYLE.md: no build-time URL). */
export const API_URL = typeof window === 'undefined' ? '' : window.location.origin;

/** Turns an error envelope into an HttpError; a field-less error stays on the form as a whole. */
export function toHttpError(status: number, body: unknown, fallback: string): ApiHttpError {
  const entries = (body as { errors?: ApiErrorEntry[] } | null)?.errors ?? [];
  const first = entries[0];
  const errors: Record<string, string[]> = {};
  for (const entry of entries) {
    const field = entry.extensions?.field;
    if (typeof field !== 'string') continue;
    // Nested names (meta.note) keep their dotted path; forms use the top-level name.
    (errors[field] ??= []).push(entry.message);
  }
  return {
    message: first?.message ?? fallback,
    statusCode: status,
    code: first?.extensions?.code,
    extensions: first?.extensions,
    errors: Object.keys(errors).length > 0 ? errors : undefined,
  };
}

/** Query values: objects become JSON, lists comma lists, undefined is left out. */
export type QueryValue = string | number | boolean | object | undefined | null;

/** Builds `?a=1&filter={…}` from a record of values. */
export function toQueryString(query: Record<string, QueryValue>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    const text = Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** Options of one API call. */
export interface RequestOptions {
  method?: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A FormData body goes as multipart, untouched. */
  signal?: AbortSignal;
  /** Extra request headers (If-Match). */
  headers?: Record<string, string>;
  /** Sees a successful response's headers (an item's ETag) before the body is read. */
  onHeaders?: (headers: Headers) => void;
  /** 'omit': without the session cookie (the public share page). */
  credentials?: RequestCredentials;
}

/**
 * Calls the API with the session cookie and returns the parsed body (`null` for 204). Failures throw an
 * ApiHttpError built from the error envelope.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query = {}, body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(`${API_URL}${path}${toQueryString(query)}`, { method, headers, body: payload, credentials: options.credentials ?? 'same-origin', signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw { message: 'The server cannot be reached.', statusCode: 0 } satisfies ApiHttpError;
  }
  if (response.ok) options.onHeaders?.(response.headers);
  // A write changes what lists of its collection count and where their pages start.
  if (response.ok && method !== 'GET') forgetListPaging(path);
  if (response.status === 204) return null as T;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!response.ok) throw toHttpError(response.status, parsed, response.statusText || `HTTP ${response.status}`);
  return parsed as T;
}

/** Calls the API and returns `data` of the envelope. */
export async function apiData<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const body = await apiRequest<{ data: T } | null>(path, options);
  return (body?.data ?? null) as T;
}
