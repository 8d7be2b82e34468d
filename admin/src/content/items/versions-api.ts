import { apiData, apiRequest } from '../../providers/http-client.ts';

/** A named draft of one item (tessera_versions, docs/versions.md). */
export interface VersionRecord {
  id: string;
  key: string;
  name: string | null;
}

/** What `GET /versions/:id/compare` answers. */
export interface VersionComparison {
  outdated: boolean;
  mainHash: string;
  current: Record<string, unknown>;
  main: Record<string, unknown>;
}

export function listVersions(collection: string, item: string): Promise<VersionRecord[]> {
  return apiData<VersionRecord[]>('/versions', { query: { filter: { collection: { _eq: collection }, item: { _eq: item } }, fields: 'id,key,name', sort: 'key', limit: -1 } }).then((rows) => rows ?? []);
}

export function createVersion(collection: string, item: string, key: string, name: string | null): Promise<VersionRecord> {
  return apiData<VersionRecord>('/versions', { method: 'POST', body: { collection, item, key, name }, query: { fields: 'id,key,name' } });
}

export async function saveToVersion(version: string, changes: Record<string, unknown>): Promise<void> {
  await apiRequest(`/versions/${encodeURIComponent(version)}/save`, { method: 'POST', body: changes, query: { fields: 'id' } });
}

export function compareVersion(version: string): Promise<VersionComparison> {
  return apiData<VersionComparison>(`/versions/${encodeURIComponent(version)}/compare`);
}

/** Promotes the picked fields; `mainHash` only when the user chose to overwrite a main that changed since. */
export async function promoteVersion(version: string, fields: string[], mainHash?: string): Promise<void> {
  await apiRequest(`/versions/${encodeURIComponent(version)}/promote`, { method: 'POST', body: { fields, ...(mainHash ? { mainHash } : {}) } });
}
