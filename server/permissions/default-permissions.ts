import type { Permission, PermissionAction } from './types.ts';

/** The user fields every app user may read of their own record (SPEC.md §6). */
export const OWN_USER_FIELDS = [
  'id',
  'first_name',
  'last_name',
  'last_page',
  'email',
  'password',
  'location',
  'title',
  'description',
  'tags',
  'avatar',
  'language',
  'appearance',
  'theme_light',
  'theme_dark',
  'tfa_secret',
  'status',
  'role',
] as const;

/** The fields of a manual flow every app user may read (its button on the item and list pages). */
export const MANUAL_FLOW_FIELDS = ['id', 'name', 'icon', 'color', 'options', 'trigger', 'status'] as const;

/**
 * What an app user may change of their own record through PATCH /users/me when the role has no update
 * permission on users: the profile, never status, role, tokens or sign-in data (TFA has its own endpoints).
 */
export const OWN_PROFILE_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'password',
  'location',
  'title',
  'description',
  'tags',
  'avatar',
  'language',
  'appearance',
  'theme_light',
  'theme_dark',
  'theme_light_overrides',
  'theme_dark_overrides',
  'email_notifications',
  'last_page',
] as const;

/** The update permission PATCH /users/me falls back to for app users. */
export const OWN_PROFILE_UPDATE: Permission = Object.freeze({
  collection: 'tessera_users',
  action: 'update',
  fields: new Set<string>(OWN_PROFILE_FIELDS),
  permissions: { id: { _eq: '$CURRENT_USER' } },
  validation: null,
  presets: null,
}) as Permission;

function permission(collection: string, action: PermissionAction, rest: Partial<Omit<Permission, 'collection' | 'action'>> = {}): Permission {
  return { collection, action, fields: '*', permissions: null, validation: null, presets: null, ...rest };
}

const OWN = { user: { _eq: '$CURRENT_USER' } };

/**
 * The permissions every role with app access has without storing them (SPEC.md §6). They are merged at
 * run time: a stored row for the same collection and action replaces the default, it does not widen it,
 * so a role can be given more (or less) than the default explicitly.
 */
export const APP_DEFAULT_PERMISSIONS: readonly Permission[] = Object.freeze([
  permission('tessera_collections', 'read'),
  permission('tessera_fields', 'read'),
  permission('tessera_relations', 'read'),
  permission('tessera_permissions', 'read', { permissions: { role: { _eq: '$CURRENT_ROLE' } } }),
  permission('tessera_activity', 'read', { permissions: OWN }),
  // Comments only: the audit log's own columns are written by the server, never forged by a caller.
  permission('tessera_activity', 'create', {
    fields: new Set(['comment', 'collection', 'item']),
    validation: { comment: { _nnull: true } },
    presets: { action: 'comment', user: '$CURRENT_USER' },
  }),
  permission('tessera_presets', 'read', {
    permissions: { _or: [OWN, { _and: [{ user: { _null: true } }, { role: { _eq: '$CURRENT_ROLE' } }] }, { _and: [{ user: { _null: true } }, { role: { _null: true } }] }] },
  }),
  permission('tessera_presets', 'create', { validation: OWN }),
  permission('tessera_presets', 'update', { permissions: OWN, validation: OWN }),
  permission('tessera_presets', 'delete', { permissions: OWN }),
  permission('tessera_roles', 'read', { permissions: { id: { _eq: '$CURRENT_ROLE' } } }),
  permission('tessera_settings', 'read'),
  permission('tessera_translations', 'read'),
  permission('tessera_notifications', 'read', { permissions: { recipient: { _eq: '$CURRENT_USER' } } }),
  permission('tessera_notifications', 'update', { permissions: { recipient: { _eq: '$CURRENT_USER' } }, fields: new Set(['status']) }),
  permission('tessera_shares', 'read', { permissions: { user_created: { _eq: '$CURRENT_USER' } } }),
  permission('tessera_users', 'read', { permissions: { id: { _eq: '$CURRENT_USER' } }, fields: new Set(OWN_USER_FIELDS) }),
  // The manual flows' buttons (Directus 10 grants app users the same): active manual flows only, and only
  // what a button needs. A manual flow's options hold nothing but its button's settings (validate-flow.ts);
  // what a run does, and any secret it uses, is in tessera_operations, which app users never read.
  permission('tessera_flows', 'read', {
    permissions: { _and: [{ trigger: { _eq: 'manual' } }, { status: { _eq: 'active' } }] },
    fields: new Set(MANUAL_FLOW_FIELDS),
  }),
]);
