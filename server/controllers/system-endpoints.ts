/**
 * System collections served by the shared item routes at their own paths (`/users` → tessera_users).
 * Files, extensions, sessions, migrations and the schema collections have endpoints of their own.
 */
export const SYSTEM_ENDPOINTS = [
  'users',
  'roles',
  'permissions',
  'folders',
  'activity',
  'revisions',
  'presets',
  'settings',
  'notifications',
  'shares',
  'flows',
  'operations',
  'dashboards',
  'panels',
  'translations',
  'versions',
  'webhooks',
] as const;

/** System collections whose own routers answer at `/<name>`: files, extensions and the schema collections. */
export const OWN_ROUTER_ENDPOINTS = ['files', 'collections', 'fields', 'relations', 'extensions'] as const;

/**
 * Every system collection the REST API addresses at `/<name>` rather than `/items/<name>` (docs/api.md).
 * Dependency-free, so the admin imports it too (admin/src/providers/resource-paths.ts).
 */
export const SYSTEM_PATHS = [...SYSTEM_ENDPOINTS, ...OWN_ROUTER_ENDPOINTS] as const;
