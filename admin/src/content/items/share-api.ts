import { API_URL, apiData, apiRequest, type RequestOptions } from '../../providers/http-client.ts';

/** A share as the admin lists it; the password reads as a mask when set (never the password). */
export interface ShareRecord {
  id: string;
  name: string | null;
  collection: string;
  item: string;
  role: string | null;
  password: string | null;
  date_start: string | null;
  date_end: string | null;
  max_uses: number | null;
  times_used: number;
  date_created: string | null;
}

/** What the form sends to create a share (blank means none: SPEC §5). */
export interface NewShare {
  name?: string | null;
  role?: string | null;
  password?: string | null;
  date_start?: string | null;
  date_end?: string | null;
  max_uses?: number | null;
}

const SHARE_FIELDS = ['id', 'name', 'collection', 'item', 'role', 'password', 'date_start', 'date_end', 'max_uses', 'times_used', 'date_created'];

/** The address of a share's public page (Directus's /admin/shared/:id). */
export function shareLink(id: string): string {
  return `${API_URL}/admin/shared/${encodeURIComponent(id)}`;
}

/** The shares of one item the caller may read, newest first. */
export function listShares(collection: string, item: string): Promise<ShareRecord[]> {
  return apiData<ShareRecord[]>('/shares', { query: { fields: SHARE_FIELDS, filter: { _and: [{ collection: { _eq: collection } }, { item: { _eq: item } }] }, sort: '-date_created', limit: -1 } }).then((rows) => rows ?? []);
}

/** Creates a share of the item. */
export function createShare(collection: string, item: string, share: NewShare): Promise<ShareRecord> {
  return apiData<ShareRecord>('/shares', { method: 'POST', body: { ...share, collection, item }, query: { fields: SHARE_FIELDS } });
}

/** Revokes a share: its link stops working at once. */
export function revokeShare(id: string): Promise<unknown> {
  return apiRequest(`/shares/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** E-mails the share's link (`POST /shares/invite`, Directus's shape). */
export function inviteToShare(share: string, emails: string[]): Promise<unknown> {
  return apiRequest('/shares/invite', { method: 'POST', body: { share, emails } });
}

/** What the public page may know about a share before entering it (`GET /shares/info/:id`). */
export interface ShareInfo {
  id: string;
  collection: string;
  item: string;
  password: boolean;
  date_start: string | null;
  date_end: string | null;
  times_used: number;
  max_uses: number | null;
}

/**
 * A call of the public share page: never the signed-in user's session cookie (the page shows what the
 * link shows, whoever opens it), the share session's token when there is one.
 */
export async function shareCall<T>(path: string, options: { method?: string; body?: unknown; token?: string; query?: RequestOptions['query'] } = {}): Promise<T> {
  const body = await apiRequest<{ data?: T } | null>(path, {
    method: options.method,
    body: options.body,
    query: options.query,
    headers: options.token ? { Authorization: `Bearer ${options.token}` } : undefined,
    credentials: 'omit',
  });
  return (body?.data ?? null) as T;
}
