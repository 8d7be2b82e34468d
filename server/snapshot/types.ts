/** The snapshot format version this Tessera writes; older documents are migrated forward on read (migrate-format.ts). */
export const SNAPSHOT_VERSION = 2;

/** Database vendor recorded in every snapshot (Tessera speaks one SQL dialect). */
export const SNAPSHOT_VENDOR = 'postgres';

/** A user collection: its settings (tessera_collections) and whether it has a table (`schema: null` is a folder). */
export interface SnapshotCollection {
  collection: string;
  meta: Record<string, unknown> | null;
  schema: { name: string } | null;
}

/** Column settings of a field as a snapshot keeps them (sizes only where the type has them). */
export interface SnapshotColumn {
  default_value: unknown;
  is_nullable: boolean;
  is_unique: boolean;
  /**
   * A plain btree index on the column. Null (a document written before Tessera managed indexes, or a file
   * that leaves the key out) means "not managed": apply keeps whatever the database has.
   */
  is_indexed: boolean | null;
  is_primary_key: boolean;
  has_auto_increment: boolean;
  max_length: number | null;
  numeric_precision: number | null;
  numeric_scale: number | null;
}

/** A field of a user collection; aliases have `schema: null`. */
export interface SnapshotField {
  collection: string;
  field: string;
  type: string;
  meta: Record<string, unknown> | null;
  schema: SnapshotColumn | null;
}

/** A relation, stored from its many side; `schema` is its foreign key (null: none). */
export interface SnapshotRelation {
  collection: string;
  field: string;
  related_collection: string | null;
  meta: Record<string, unknown> | null;
  schema: { on_delete: string } | null;
}

/** A row of a configuration table as a snapshot keeps it: plain JSON values, role ids replaced by role names. */
export type SnapshotRow = Record<string, unknown>;

/** The configuration sections, in the order apply writes them. */
export const CONFIG_SECTIONS = [
  'roles',
  'folders',
  'flows',
  'operations',
  'dashboards',
  'panels',
  'webhooks',
  'translations',
  'permissions',
  'presets',
  'extensions',
] as const;
export type ConfigSection = (typeof CONFIG_SECTIONS)[number];

/** Every section a snapshot document can hold. */
export const SNAPSHOT_SECTIONS = ['collections', 'fields', 'relations', ...CONFIG_SECTIONS, 'settings'] as const;
export type SnapshotSection = (typeof SNAPSHOT_SECTIONS)[number];

/**
 * A whole snapshot in one document: what `GET /schema/snapshot` returns and what the files under
 * snapshots/ split into. A configuration section that is absent is not managed: diff and apply leave
 * that part of the database alone (the schema sections are always managed).
 */
export interface SnapshotDocument {
  version: number;
  vendor: string;
  collections: SnapshotCollection[];
  fields: SnapshotField[];
  relations: SnapshotRelation[];
  roles?: SnapshotRow[];
  permissions?: SnapshotRow[];
  presets?: SnapshotRow[];
  flows?: SnapshotRow[];
  operations?: SnapshotRow[];
  dashboards?: SnapshotRow[];
  panels?: SnapshotRow[];
  translations?: SnapshotRow[];
  webhooks?: SnapshotRow[];
  folders?: SnapshotRow[];
  /** Which extensions are enabled (extension-flags.ts). */
  extensions?: SnapshotRow[];
  settings?: SnapshotRow | null;
}
