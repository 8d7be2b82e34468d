import { FIELD_WIDTHS, type SystemCollection } from '../types.ts';
import { ACCOUNTABILITY_VALUES, COLLECTION_COLLAPSE_STATES, DESELECT_ACTIONS } from './constants.ts';
import { collection, collectionReference, field, m2o, select, serialKey } from './define.ts';

const ACCOUNTABILITY_LABELS = {
  all: 'Track activity and revisions',
  activity: 'Track activity only',
  null: 'Do not track anything',
};

/** Sub-fields of a collection translation (SPEC.md §3, §5: language and translation required). */
const COLLECTION_TRANSLATION_FIELDS = [
  { field: 'language', type: 'string', meta: { interface: 'system-language', required: true, width: 'half' } },
  { field: 'translation', type: 'string', meta: { interface: 'input', required: true, width: 'half' } },
  { field: 'singular', type: 'string', meta: { interface: 'input', width: 'half' } },
  { field: 'plural', type: 'string', meta: { interface: 'input', width: 'half' } },
];

/** Sub-fields of a field translation. */
const FIELD_TRANSLATION_FIELDS = COLLECTION_TRANSLATION_FIELDS.slice(0, 2);

/** tessera_collections: the settings of every user collection (SPEC.md §3 "Collection settings"). */
export const collections: SystemCollection = collection(
  'tessera_collections',
  [
    field('collection', 'string', { primaryKey: true, nullable: false, required: true }),
    field('note', 'text', { interface: 'input' }),
    field('icon', 'string', { interface: 'select-icon', width: 'half' }),
    field('color', 'string', { interface: 'select-color', width: 'half' }),
    field('display_template', 'string', { interface: 'system-display-template' }),
    field('hidden', 'boolean', { nullable: false, width: 'half' }),
    field('singleton', 'boolean', { nullable: false, width: 'half' }),
    field('translations', 'json', {
      interface: 'list',
      options: { template: '{{ translation }} ({{ language }})', fields: COLLECTION_TRANSLATION_FIELDS },
    }),
    field('preview_url', 'string'),
    field('versioning', 'boolean', { nullable: false, width: 'half' }),
    field('archive_field', 'string', { interface: 'system-field', width: 'half' }),
    field('archive_app_filter', 'boolean', { nullable: false, width: 'half' }),
    field('archive_value', 'string', { width: 'half' }),
    field('unarchive_value', 'string', { width: 'half' }),
    field('sort_field', 'string', { interface: 'system-field', width: 'half' }),
    field('accountability', 'string', { ...select(ACCOUNTABILITY_VALUES, ACCOUNTABILITY_LABELS), width: 'half' }),
    field('item_duplication_fields', 'json', { interface: 'system-field-tree' }),
    field('sort', 'integer', { hidden: true }),
    m2o('group', 'tessera_collections', { keyType: 'string', interface: 'system-collection', hidden: true }),
    field('collapse', 'string', { ...select(COLLECTION_COLLAPSE_STATES), nullable: false, hidden: true }),
  ],
  { icon: 'database', display_template: '{{collection}}' },
);

/**
 * tessera_fields: the presentation metadata of user-collection fields (SPEC.md §3 "Field metadata").
 * `group` names a sibling field of the same collection; the database enforces it with a composite key,
 * so it is a plain string here rather than an m2o on `id`.
 */
export const fields: SystemCollection = collection(
  'tessera_fields',
  [
    serialKey(),
    collectionReference(),
    field('field', 'string', { nullable: false, required: true, width: 'half' }),
    field('special', 'csv'),
    field('interface', 'string', { width: 'half' }),
    field('options', 'json'),
    field('display', 'string', { width: 'half' }),
    field('display_options', 'json'),
    field('readonly', 'boolean', { nullable: false, width: 'half' }),
    field('hidden', 'boolean', { nullable: false, width: 'half' }),
    field('sort', 'integer', { width: 'half' }),
    field('width', 'string', { ...select(FIELD_WIDTHS), nullable: false, width: 'half' }),
    field('group', 'string', { interface: 'system-field', width: 'half' }),
    field('translations', 'json', {
      interface: 'list',
      options: { template: '{{ translation }} ({{ language }})', fields: FIELD_TRANSLATION_FIELDS },
    }),
    field('note', 'text', { interface: 'input' }),
    field('conditions', 'json'),
    field('required', 'boolean', { nullable: false, width: 'half' }),
    field('validation', 'json', { interface: 'system-filter' }),
    field('validation_message', 'text', { interface: 'input' }),
  ],
  { icon: 'input' },
);

/** tessera_relations: how user-collection fields point at one another (DESIGN.md §3). */
export const relations: SystemCollection = collection(
  'tessera_relations',
  [
    serialKey(),
    field('many_collection', 'string', { nullable: false, required: true, width: 'half' }),
    field('many_field', 'string', { nullable: false, required: true, width: 'half' }),
    field('one_collection', 'string', { width: 'half' }),
    field('one_field', 'string', { width: 'half' }),
    field('one_collection_field', 'string', { width: 'half' }),
    field('one_allowed_collections', 'csv'),
    field('junction_field', 'string', { width: 'half' }),
    field('sort_field', 'string', { width: 'half' }),
    field('one_deselect_action', 'string', { ...select(DESELECT_ACTIONS), nullable: false, width: 'half' }),
  ],
  { icon: 'merge_type' },
);

/** tessera_migrations: MikroORM's migration log, created by the migrator itself; read-only. */
export const migrations: SystemCollection = collection(
  'tessera_migrations',
  [
    serialKey(),
    field('name', 'string', { nullable: false, readonly: true }),
    field('executed_at', 'timestamp', { nullable: false, readonly: true }),
  ],
  { icon: 'history', accountability: null },
);
