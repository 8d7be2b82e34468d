/** Storage types a field can have; `alias` fields have no column (o2m, m2m, m2a, groups). */
export const FIELD_TYPES = [
  'string',
  'text',
  'integer',
  'bigInteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'dateTime',
  'timestamp',
  'json',
  'csv',
  'uuid',
  'hash',
  'alias',
  'geometry',
  'geometry.Point',
  'geometry.LineString',
  'geometry.Polygon',
  'geometry.MultiPoint',
  'geometry.MultiLineString',
  'geometry.MultiPolygon',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Specials change how a field's value is produced or presented (DESIGN.md §3). */
export const FIELD_SPECIALS = [
  'uuid',
  'date-created',
  'date-updated',
  'user-created',
  'user-updated',
  'role-created',
  'hash',
  'cast-boolean',
  'cast-json',
  'cast-csv',
  'conceal',
  'm2o',
  // Directus marks its file and image fields (an m2o to the files) with `file`; snapshots carry it (issue 33).
  'file',
  'o2m',
  'm2m',
  'm2a',
  'files',
  'translations',
  'group',
  'no-data',
  'alias',
] as const;
export type FieldSpecial = (typeof FIELD_SPECIALS)[number];

export const FIELD_WIDTHS = ['half', 'full'] as const;
export type FieldWidth = (typeof FIELD_WIDTHS)[number];

/** The presentation metadata of a field: the columns of tessera_fields (SPEC.md §3 "Field metadata"). */
export interface FieldMeta {
  special: FieldSpecial[] | null;
  interface: string | null;
  options: Record<string, unknown> | null;
  display: string | null;
  display_options: Record<string, unknown> | null;
  readonly: boolean;
  hidden: boolean;
  sort: number | null;
  width: FieldWidth;
  group: string | null;
  translations: Array<{ language: string; translation: string }> | null;
  note: string | null;
  conditions: unknown[] | null;
  required: boolean;
  /** A filter rule over the item that every create and update must meet (Directus's field validation). */
  validation: Record<string, unknown> | null;
  /** The message of the 400 FAILED_VALIDATION when `validation` is not met. */
  validation_message: string | null;
}

/** A field of a system collection as the API layer sees it: storage facts plus metadata. */
export interface SystemField {
  field: string;
  type: FieldType;
  /** True for the primary key column. */
  primaryKey: boolean;
  nullable: boolean;
  /** Never returned in clear by the API (passwords, secrets, tokens). */
  concealed: boolean;
  /** For m2o fields: the collection the key points to. */
  relatedCollection: string | null;
  meta: FieldMeta;
}

/** A system collection: its name without prefix, its table and its fields in display order. */
export interface SystemCollection {
  /** API name, e.g. `tessera_users`. */
  collection: string;
  /** Name of the primary-key field. */
  primary: string;
  singleton: boolean;
  /** Collection-level metadata (SPEC.md §3 "Collection settings") where it differs from defaults. */
  meta: {
    note: string | null;
    icon: string | null;
    accountability: 'all' | 'activity' | null;
    archive_field: string | null;
    archive_value: string | null;
    unarchive_value: string | null;
    sort_field: string | null;
    display_template: string | null;
  };
  fields: SystemField[];
}
