/**
 * Builders for schema snapshots in Directus's format (`GET /schema/snapshot` of Directus 10/11): a
 * collection, its fields' `meta` and `schema` halves and a relation's `meta`, every key Directus writes
 * present, so a test states only what its fields differ in.
 */

type Extra = Record<string, unknown>;

/** A field's `meta` as Directus writes it (`input`, visible, full width) with `extra` over it. */
export const fieldMeta = (collection: string, field: string, extra: Extra = {}) => ({
  id: 1, collection, field, conditions: null, display: null, display_options: null, group: null, hidden: false, interface: 'input', note: null, options: null,
  readonly: false, required: false, sort: null, special: null, translations: null, validation: null, validation_message: null, searchable: true, width: 'full', ...extra,
});

/** A column's `schema` as Directus writes it (nullable, no default) with `extra` over it. */
export const column = (table: string, name: string, data_type: string, extra: Extra = {}) => ({
  name, table, data_type, default_value: null, max_length: null, numeric_precision: null, numeric_scale: null, is_nullable: true, is_unique: false, is_indexed: false,
  is_primary_key: false, is_generated: false, generation_expression: null, has_auto_increment: false, foreign_key_table: null, foreign_key_column: null, ...extra,
});

/** A collection with a table, `extra` over its `meta`. */
export const collection = (name: string, extra: Extra = {}) => ({
  collection: name,
  meta: { collection: name, accountability: 'all', archive_app_filter: true, archive_field: null, archive_value: null, collapse: 'open', color: null, display_template: null, group: null, hidden: false, icon: null, item_duplication_fields: null, note: null, preview_url: null, singleton: false, sort: null, sort_field: null, translations: null, unarchive_value: null, versioning: false, ...extra },
  schema: { name, schema: 'public', comment: null },
});

/** An auto-increment integer primary key `id`. */
export const idField = (table: string) => ({
  collection: table,
  field: 'id',
  type: 'integer',
  meta: fieldMeta(table, 'id', { hidden: true, readonly: true }),
  schema: column(table, 'id', 'integer', { default_value: `nextval('${table}_id_seq'::regclass)`, is_nullable: false, is_unique: true, is_primary_key: true, has_auto_increment: true }),
});

/** A varchar(255) field, `extra` over its `meta`. */
export const textField = (table: string, field: string, extra: Extra = {}) => ({ collection: table, field, type: 'string', meta: fieldMeta(table, field, extra), schema: column(table, field, 'character varying', { max_length: 255 }) });

/** A field of another type (`json`, `integer`, `uuid`…) on a column of `dataType`, `extra` over its `meta`. */
export const typedField = (table: string, field: string, type: string, dataType: string, extra: Extra = {}, columnExtra: Extra = {}) => ({
  collection: table,
  field,
  type,
  meta: fieldMeta(table, field, extra),
  schema: column(table, field, dataType, columnExtra),
});

/** An alias field (no column): presentation fields, o2m, m2m, files and m2a lists. */
export const aliasField = (table: string, field: string, extra: Extra) => ({ collection: table, field, type: 'alias', meta: fieldMeta(table, field, extra) });

/** A relation's `meta` as Directus writes it, `extra` over it. */
export const relationMeta = (extra: Extra) => ({ id: 1, junction_field: null, one_allowed_collections: null, one_collection: null, one_collection_field: null, one_deselect_action: 'nullify', one_field: null, sort_field: null, ...extra });

/** A relation's foreign key as Directus writes it. */
export const foreignKey = (table: string, columnName: string, foreignTable: string, foreignColumn: string, onDelete = 'SET NULL') => ({
  table, column: columnName, foreign_key_table: foreignTable, foreign_key_column: foreignColumn, foreign_key_schema: 'public', constraint_name: `${table}_${columnName}_foreign`, on_update: 'NO ACTION', on_delete: onDelete,
});
