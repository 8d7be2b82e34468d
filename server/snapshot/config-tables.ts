import type { Kysely } from 'kysely';
import { extensionLabel, readExtensionRows, writeExtensionRow } from './extension-flags.ts';
import type { ConfigSection, SnapshotRow } from './types.ts';

/**
 * How one configuration section maps to its system table. Rows are identified by `key` (natural keys
 * where the table has them, the uuid otherwise), so one project's snapshot applies to another database.
 */
export interface ConfigTable {
  section: ConfigSection;
  table: string;
  /** Snapshot columns that identify a row. */
  key: readonly string[];
  /** The columns a snapshot keeps, in the order they are written. */
  columns: readonly string[];
  /** Columns holding comma-separated lists in the database, arrays in a snapshot. */
  csv?: readonly string[];
  /** Columns holding a role id in the database, the role's name in a snapshot (null: the public role / global). */
  roleColumns?: readonly string[];
  /** Self or cyclic references, written in a second pass once every row exists. */
  deferred?: readonly string[];
  /** Only rows of the project, not of one user (presets). */
  projectRowsOnly?: boolean;
  /** Column defaults of the table, filled in for columns a snapshot file leaves out (the rest default to null). */
  defaults?: Readonly<Record<string, unknown>>;
  /** The part of a snapshot file name or a secret's variable name that tells the row apart. */
  label(row: SnapshotRow): string;
  /** Rows the snapshot does not list are left as they are (no delete steps). */
  keepUnlisted?: boolean;
  /** Reads the rows when they are not the table's columns as they are (with each row's database id). */
  read?(db: Kysely<any>): Promise<Array<{ row: SnapshotRow; id: unknown }>>;
  /** Creates or updates a row read by `read`; returns its database id. */
  write?(db: Kysely<any>, row: SnapshotRow): Promise<unknown>;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Configuration tables in the order apply writes them (deletes run in reverse). */
export const CONFIG_TABLES: readonly ConfigTable[] = [
  {
    section: 'roles',
    table: 'tessera_roles',
    key: ['name'],
    columns: ['name', 'icon', 'description', 'app_access', 'admin_access', 'ip_access', 'enforce_tfa'],
    csv: ['ip_access'],
    defaults: { icon: 'supervised_user_circle', app_access: true, admin_access: false, enforce_tfa: false },
    label: (row) => text(row.name),
  },
  { section: 'folders', table: 'tessera_folders', key: ['id'], columns: ['id', 'name', 'parent'], deferred: ['parent'], label: (row) => text(row.name) },
  {
    section: 'flows',
    table: 'tessera_flows',
    key: ['id'],
    columns: ['id', 'name', 'icon', 'color', 'description', 'status', 'trigger', 'accountability', 'options', 'operation'],
    deferred: ['operation'],
    defaults: { status: 'active', accountability: 'all' },
    label: (row) => text(row.name),
  },
  {
    section: 'operations',
    table: 'tessera_operations',
    // Keyed by flow + key, and resolve/reject (like the flow's `operation`) name operations by key: an
    // operation's uuid differs between databases, its key within its flow does not (apply-config.ts maps them).
    key: ['flow', 'key'],
    columns: ['flow', 'key', 'name', 'type', 'position_x', 'position_y', 'options', 'resolve', 'reject'],
    deferred: ['resolve', 'reject'],
    label: (row) => text(row.key),
  },
  { section: 'dashboards', table: 'tessera_dashboards', key: ['id'], columns: ['id', 'name', 'icon', 'note', 'color'], defaults: { icon: 'dashboard' }, label: (row) => text(row.name) },
  {
    section: 'panels',
    table: 'tessera_panels',
    key: ['id'],
    columns: ['id', 'dashboard', 'name', 'icon', 'color', 'show_header', 'note', 'type', 'position_x', 'position_y', 'width', 'height', 'options'],
    defaults: { show_header: false },
    label: (row) => text(row.name ?? row.type),
  },
  {
    section: 'webhooks',
    table: 'tessera_webhooks',
    key: ['name'],
    columns: ['name', 'method', 'url', 'status', 'data', 'headers', 'actions', 'collections', 'was_active_before_deprecation', 'migrated_flow'],
    csv: ['actions', 'collections'],
    defaults: { method: 'POST', status: 'active', data: true, was_active_before_deprecation: false },
    label: (row) => text(row.name),
  },
  { section: 'translations', table: 'tessera_translations', key: ['key', 'language'], columns: ['key', 'language', 'value'], label: (row) => `${text(row.key)} ${text(row.language)}` },
  {
    section: 'permissions',
    table: 'tessera_permissions',
    key: ['role', 'collection', 'action'],
    columns: ['role', 'collection', 'action', 'fields', 'permissions', 'validation', 'presets'],
    csv: ['fields'],
    roleColumns: ['role'],
    label: (row) => `${text(row.collection)} ${text(row.action)}`,
  },
  {
    section: 'presets',
    table: 'tessera_presets',
    key: ['role', 'collection', 'bookmark'],
    columns: ['role', 'collection', 'bookmark', 'search', 'layout', 'layout_query', 'layout_options', 'refresh_interval', 'filter', 'icon', 'color'],
    roleColumns: ['role'],
    projectRowsOnly: true,
    defaults: { layout: 'tabular', icon: 'bookmark' },
    label: (row) => `${text(row.collection)} ${text(row.bookmark)}`,
  },
  {
    // Only the enabled flag is configuration: rows come from the extensions found on disk, so a row the
    // snapshot leaves out is kept (deleting it would only bring it back, enabled, at the next start).
    section: 'extensions',
    table: 'tessera_extensions',
    key: ['source', 'bundle', 'folder'],
    columns: ['source', 'bundle', 'folder', 'enabled'],
    defaults: { source: 'local', enabled: true },
    keepUnlisted: true,
    read: readExtensionRows,
    write: writeExtensionRow,
    label: extensionLabel,
  },
];

/** The table of a configuration section. */
export function configTable(section: ConfigSection): ConfigTable {
  return CONFIG_TABLES.find((table) => table.section === section)!;
}

/** Columns of tessera_settings a snapshot keeps: not the id, nor references to files (files are content, not configuration). */
export const SETTINGS_COLUMNS = [
  'project_name',
  'project_descriptor',
  'project_url',
  'project_color',
  'public_note',
  'default_language',
  'default_appearance',
  'default_theme_light',
  'default_theme_dark',
  'theme_light_overrides',
  'theme_dark_overrides',
  'custom_css',
  'module_bar',
  'auth_password_policy',
  'auth_login_attempts',
  'storage_asset_transform',
  'storage_asset_presets',
  'storage_default_folder',
  'report_feature_url',
  'report_bug_url',
  'report_error_url',
  'mapbox_key',
  'basemaps',
  'custom_aspect_ratios',
] as const;

/** The identity of a row within its section: its key columns as one string. */
export function rowKey(table: ConfigTable, row: SnapshotRow): string {
  return JSON.stringify(table.key.map((column) => row[column] ?? null));
}
