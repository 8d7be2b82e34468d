/** A collection as `/collections` answers it. */
export interface CollectionInfo {
  collection: string;
  meta: {
    icon: string | null;
    note: string | null;
    color: string | null;
    display_template: string | null;
    hidden: boolean;
    singleton: boolean;
    translations: { language: string; translation: string; singular?: string; plural?: string }[] | null;
    archive_field: string | null;
    archive_app_filter: boolean;
    archive_value: string | null;
    unarchive_value: string | null;
    sort_field: string | null;
    accountability: 'all' | 'activity' | null;
    sort: number | null;
    group: string | null;
    collapse: 'open' | 'closed' | 'locked' | null;
    /** Content versions are on (docs/versions.md). */
    versioning?: boolean;
    /** Fields "Save as copy" carries (null: every plain field and many-to-one). */
    item_duplication_fields?: string[] | null;
    /** The item's page on the site, with `{{field}}` placeholders: the live preview beside the form. */
    preview_url?: string | null;
  } | null;
  /** null for a folder (a collection without a table). */
  schema: { name: string } | null;
}

/** A field as `/fields` answers it. */
export interface FieldInfo {
  collection: string;
  field: string;
  type: string;
  meta: {
    special: string[] | null;
    interface: string | null;
    options: Record<string, unknown> | null;
    display: string | null;
    display_options: Record<string, unknown> | null;
    readonly: boolean;
    hidden: boolean;
    sort: number | null;
    width: 'half' | 'full' | null;
    group: string | null;
    translations: { language: string; translation: string }[] | null;
    note: string | null;
    conditions: FieldCondition[] | null;
    required: boolean;
  } | null;
  schema: {
    default_value: unknown;
    max_length: number | null;
    numeric_precision: number | null;
    numeric_scale: number | null;
    is_nullable: boolean;
    is_unique: boolean;
    /** A plain btree index on the column (Directus's field schema has it). */
    is_indexed?: boolean;
    is_primary_key: boolean;
    has_auto_increment: boolean;
  } | null;
}

/** A condition of a field: when `rule` (a filter over the item being edited) matches, these apply. */
export interface FieldCondition {
  name?: string;
  rule: Record<string, unknown>;
  readonly?: boolean;
  hidden?: boolean;
  required?: boolean;
  options?: Record<string, unknown>;
}

/** A relation as `/relations` answers it. */
export interface RelationInfo {
  collection: string;
  field: string;
  related_collection: string | null;
  meta: {
    one_field: string | null;
    junction_field: string | null;
    sort_field: string | null;
    one_collection_field: string | null;
    one_allowed_collections: string[] | null;
    one_deselect_action: 'nullify' | 'delete';
  } | null;
}
