import type { BaseKey } from '@refinedev/core';
import { SYSTEM_PATHS } from '../../../server/controllers/system-endpoints.ts';

/** System collections with an endpoint of their own (docs/api.md); any other name is a user collection. */
export const SYSTEM_ENDPOINTS: ReadonlySet<string> = new Set(SYSTEM_PATHS);

/** The API path of a resource: `/users` for system endpoints, `/items/<name>` for collections. */
export function resourcePath(resource: string): string {
  const name = resource.startsWith('tessera_') ? resource.slice('tessera_'.length) : resource;
  return SYSTEM_ENDPOINTS.has(name) ? `/${name}` : `/items/${encodeURIComponent(name)}`;
}

/** The path of one item; keys with slashes (`articles/title` for a field) keep them as path segments. */
export function itemPath(resource: string, id: BaseKey): string {
  return `${resourcePath(resource)}/${String(id).split('/').map(encodeURIComponent).join('/')}`;
}
