import type { SystemCollection } from '../types.ts';
import { APPEARANCES, PERMISSION_ACTIONS, USER_ARCHIVE, USER_STATUSES } from './constants.ts';
import { collection, collectionReference, dateCreated, field, m2o, o2m, select, serialKey, userCreated, uuidKey } from './define.ts';

const APPEARANCE_LABELS = { null: 'Sync with project' };

/** tessera_roles: app/admin access, allowed IPs and TFA enforcement (SPEC.md §3, §6). */
export const roles: SystemCollection = collection(
  'tessera_roles',
  [
    uuidKey(),
    field('name', 'string', { nullable: false, required: true, width: 'half' }),
    field('icon', 'string', { nullable: false, interface: 'select-icon', width: 'half' }),
    field('description', 'text', { interface: 'input' }),
    field('app_access', 'boolean', { nullable: false, width: 'half' }),
    field('admin_access', 'boolean', { nullable: false, width: 'half' }),
    field('ip_access', 'csv', { options: { placeholder: 'Add an IP address…' } }),
    field('enforce_tfa', 'boolean', { nullable: false, width: 'half' }),
    o2m('users'),
  ],
  { icon: 'supervised_user_circle', display_template: '{{name}}' },
);

/** tessera_users: people who sign in, with status, role and personal preferences (SPEC.md §3, §4). */
export const users: SystemCollection = collection(
  'tessera_users',
  [
    field('first_name', 'string', { width: 'half' }),
    field('last_name', 'string', { width: 'half' }),
    field('email', 'string', { width: 'half' }),
    field('password', 'hash', { width: 'half' }),
    m2o('avatar', 'tessera_files', { interface: 'file-image', width: 'full' }),
    field('location', 'string', { width: 'half' }),
    field('title', 'string', { width: 'half' }),
    field('description', 'text'),
    field('tags', 'csv'),
    field('language', 'string', { interface: 'system-language', width: 'half' }),
    field('tfa_secret', 'string', { special: ['conceal'], interface: 'system-mfa-setup', width: 'half' }),
    field('email_notifications', 'boolean', { nullable: false, width: 'half' }),
    field('appearance', 'string', { ...select([null, ...APPEARANCES], APPEARANCE_LABELS), width: 'half' }),
    field('theme_light', 'string', { interface: 'system-theme', width: 'half' }),
    field('theme_dark', 'string', { interface: 'system-theme', width: 'half' }),
    field('theme_light_overrides', 'json', { interface: 'system-theme-overrides' }),
    field('theme_dark_overrides', 'json', { interface: 'system-theme-overrides' }),
    field('status', 'string', { ...select(USER_STATUSES), nullable: false, width: 'half' }),
    m2o('role', 'tessera_roles', { width: 'half' }),
    field('token', 'string', { special: ['conceal'], interface: 'system-token', width: 'full' }),
    uuidKey(),
    field('last_page', 'string', { readonly: true, width: 'half' }),
    field('last_access', 'timestamp', { readonly: true, width: 'half' }),
    field('provider', 'string', { nullable: false, width: 'half' }),
    field('external_identifier', 'string', { width: 'half' }),
    field('auth_data', 'json', { special: ['cast-json', 'conceal'], hidden: true }),
  ],
  {
    icon: 'people_alt',
    archive_field: 'status',
    archive_value: USER_ARCHIVE.archiveValue,
    unarchive_value: USER_ARCHIVE.unarchiveValue,
    display_template: '{{first_name}} {{last_name}}',
  },
);

/** tessera_permissions: one rule per role, collection and action (DESIGN.md §5). */
export const permissions: SystemCollection = collection(
  'tessera_permissions',
  [
    serialKey(),
    m2o('role', 'tessera_roles', { width: 'half' }),
    field('collection', 'string', { nullable: false, required: true, interface: 'system-collection', width: 'half' }),
    field('action', 'string', { ...select(PERMISSION_ACTIONS), nullable: false, required: true, width: 'half' }),
    field('fields', 'csv'),
    field('permissions', 'json', { interface: 'system-filter' }),
    field('validation', 'json', { interface: 'system-filter' }),
    field('presets', 'json'),
  ],
  { icon: 'admin_panel_settings' },
);

/** tessera_sessions: refresh sessions of users and shares; internal (SPEC.md §4, §9). */
export const sessions: SystemCollection = collection(
  'tessera_sessions',
  [
    field('token', 'string', {
      primaryKey: true,
      nullable: false,
      special: ['conceal'],
      readonly: true,
      hidden: true,
    }),
    m2o('user', 'tessera_users', { readonly: true }),
    field('expires', 'timestamp', { nullable: false, readonly: true }),
    field('ip', 'string', { readonly: true }),
    field('user_agent', 'text', { readonly: true }),
    field('origin', 'string', { readonly: true }),
    m2o('share', 'tessera_shares', { readonly: true }),
  ],
  { icon: 'key', accountability: null },
);

/** tessera_shares: public links to one item under a non-admin role (SPEC.md §3, §5). */
export const shares: SystemCollection = collection(
  'tessera_shares',
  [
    uuidKey(),
    field('name', 'string', { width: 'half' }),
    collectionReference(),
    field('item', 'string', { nullable: false, required: true, width: 'half' }),
    m2o('role', 'tessera_roles', { width: 'half', note: 'Must be a role without admin access' }),
    field('password', 'hash', { width: 'half', note: 'Leave blank for a passwordless share' }),
    field('date_start', 'timestamp', { width: 'half', note: 'Leave blank to start immediately' }),
    field('date_end', 'timestamp', { width: 'half', note: 'Leave blank to never expire' }),
    field('max_uses', 'integer', { width: 'half', note: 'Leave blank for unlimited uses' }),
    field('times_used', 'integer', { nullable: false, readonly: true, width: 'half' }),
    dateCreated(),
    userCreated(),
  ],
  { icon: 'share', display_template: '{{name}}' },
);
