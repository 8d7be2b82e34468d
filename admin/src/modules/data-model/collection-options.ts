/** Icon names a collection can take (the names the content menu knows). */
export const COLLECTION_ICONS = ['article', 'book', 'event', 'image', 'folder', 'public', 'shopping_cart', 'star', 'label', 'people', 'person', 'comment', 'box', 'settings'] as const;

/** Primary key kinds a new collection can have. */
export const PRIMARY_KEY_KINDS = ['integer', 'uuid', 'string'] as const;
/** A primary key kind. */
export type PrimaryKeyKind = (typeof PRIMARY_KEY_KINDS)[number];

/** The fields a new collection starts with: none for an integer key (the server adds `id`), else its key. */
export function primaryKeyFields(kind: PrimaryKeyKind): Array<Record<string, unknown>> {
  if (kind === 'integer') return [];
  return [{ field: 'id', type: kind, schema: { is_primary_key: true, ...(kind === 'string' ? { max_length: 255 } : {}) }, meta: { hidden: kind === 'uuid', readonly: kind === 'uuid' } }];
}

/** Collection accountability choices: all (activity and revisions), activity only, none (null). */
export const ACCOUNTABILITY_CHOICES = [
  { value: 'all', label: 'dataModel.accountability.all' },
  { value: 'activity', label: 'dataModel.accountability.activity' },
  { value: 'none', label: 'dataModel.accountability.none' },
] as const;
