/**
 * System collections served by the shared item routes at their own paths (`/users` → tessera_users).
 * Files, sessions, migrations and the schema collections have endpoints of their own.
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
  'extensions',
] as const;
