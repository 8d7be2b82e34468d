/** Activity actions (SPEC §9: writes, plus login and comments in the log; saves into content versions and flow runs). */
export const ACTIVITY_ACTIONS = ['create', 'update', 'delete', 'login', 'comment', 'version_save', 'run'] as const;

/** Tag colours of actions. */
export const ACTION_COLOURS: Readonly<Record<string, string>> = { create: 'green', update: 'blue', delete: 'red', login: 'purple', comment: 'gold', version_save: 'cyan', run: 'geekblue' };

/** Admin screens of system collections that open one item (or the singleton). */
const SYSTEM_SCREENS: Readonly<Record<string, (item: string) => string>> = {
  tessera_users: (item) => `/users/${encodeURIComponent(item)}`,
  tessera_roles: (item) => `/roles/${encodeURIComponent(item)}`,
  tessera_settings: () => '/settings',
  tessera_collections: (item) => `/data-model/${encodeURIComponent(item)}`,
  tessera_flows: (item) => `/flows/${encodeURIComponent(item)}`,
};

/**
 * Where an activity entry's item opens in the admin: the item editor for user collections, the matching
 * screen for users, roles, settings and collections, nothing for other system collections or deletions.
 */
export function activityItemLink(entry: { collection: string; item: string; action: string }): string | null {
  if (entry.action === 'delete' || entry.action === 'login') return null;
  if (entry.collection.startsWith('tessera_')) return SYSTEM_SCREENS[entry.collection]?.(entry.item) ?? null;
  return `/content/${encodeURIComponent(entry.collection)}/${encodeURIComponent(entry.item)}`;
}

/** The filter of the activity list from the chosen user, action, collection and time range (ISO instants, inclusive). */
export function activityFilter(choice: { user?: string | null; action?: string | null; collection?: string | null; from?: string | null; to?: string | null }): Record<string, unknown> | null {
  const parts: Record<string, unknown>[] = [];
  if (choice.user) parts.push({ user: { _eq: choice.user } });
  if (choice.action) parts.push({ action: { _eq: choice.action } });
  if (choice.collection) parts.push({ collection: { _eq: choice.collection } });
  if (choice.from) parts.push({ timestamp: { _gte: choice.from } });
  if (choice.to) parts.push({ timestamp: { _lte: choice.to } });
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : { _and: parts };
}
