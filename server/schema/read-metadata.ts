import { sql, type Kysely } from 'kysely';
import type { DeselectAction } from './system/constants.ts';
import type { FieldMeta, FieldSpecial, FieldWidth } from './types.ts';

/** The columns of tessera_collections, in the order Directus lists collection meta. */
export const COLLECTION_META_COLUMNS = [
  'collection',
  'icon',
  'note',
  'display_template',
  'hidden',
  'singleton',
  'translations',
  'archive_field',
  'archive_app_filter',
  'archive_value',
  'unarchive_value',
  'sort_field',
  'accountability',
  'color',
  'item_duplication_fields',
  'sort',
  'group',
  'collapse',
  'preview_url',
  'versioning',
] as const;

/** A tessera_fields row, parsed. */
export interface FieldMetaRow {
  id: number;
  collection: string;
  field: string;
  meta: FieldMeta;
}

/** A tessera_relations row, parsed. */
export interface RelationRow {
  id: number;
  many_collection: string;
  many_field: string;
  one_collection: string | null;
  one_field: string | null;
  one_collection_field: string | null;
  one_allowed_collections: string[] | null;
  junction_field: string | null;
  sort_field: string | null;
  one_deselect_action: DeselectAction;
}

/** The metadata Tessera keeps about user collections. */
export interface Metadata {
  /** tessera_collections rows by collection. */
  collections: Map<string, Record<string, unknown>>;
  /** tessera_fields rows by collection, in `sort` then creation order. */
  fields: Map<string, FieldMetaRow[]>;
  relations: RelationRow[];
}

/** Splits a comma-separated list column; empty and null give null. */
export function splitCsv(value: unknown): string[] | null {
  if (typeof value !== 'string' || value === '') return null;
  return value.split(',').map((item) => item.trim()).filter(Boolean);
}

/** A tessera_fields row as FieldMeta. */
export function toFieldMeta(row: Record<string, any>): FieldMeta {
  return {
    special: splitCsv(row.special) as FieldSpecial[] | null,
    interface: row.interface ?? null,
    options: row.options ?? null,
    display: row.display ?? null,
    display_options: row.display_options ?? null,
    readonly: Boolean(row.readonly),
    hidden: Boolean(row.hidden),
    sort: row.sort ?? null,
    width: (row.width ?? 'full') as FieldWidth,
    group: row.group ?? null,
    translations: row.translations ?? null,
    note: row.note ?? null,
    conditions: row.conditions ?? null,
    required: Boolean(row.required),
    validation: row.validation ?? null,
    validation_message: row.validation_message ?? null,
  };
}

/**
 * Reads tessera_collections, tessera_fields and tessera_relations; with `collections`, only their rows
 * (relations by their many side), for re-reading the collections a change touched.
 */
export async function readMetadata(db: Kysely<any>, collections: readonly string[] | null = null): Promise<Metadata> {
  const only = collections ? [...collections] : null;
  let collectionQuery = db.selectFrom('tessera_collections').select([...COLLECTION_META_COLUMNS]);
  let fieldQuery = db.selectFrom('tessera_fields').selectAll();
  let relationQuery = db.selectFrom('tessera_relations').selectAll();
  if (only) {
    collectionQuery = collectionQuery.where('collection', '=', sql<string>`any(${only}::text[])`);
    fieldQuery = fieldQuery.where('collection', '=', sql<string>`any(${only}::text[])`);
    relationQuery = relationQuery.where('many_collection', '=', sql<string>`any(${only}::text[])`);
  }
  const [collectionRows, fieldRows, relationRows] = await Promise.all([
    collectionQuery.orderBy('collection').execute(),
    fieldQuery.orderBy('collection').orderBy('sort').orderBy('id').execute(),
    relationQuery.orderBy('id').execute(),
  ]);
  const fields = new Map<string, FieldMetaRow[]>();
  for (const row of fieldRows) {
    const parsed = { id: row.id, collection: row.collection, field: row.field, meta: toFieldMeta(row) };
    const list = fields.get(row.collection);
    if (list) list.push(parsed);
    else fields.set(row.collection, [parsed]);
  }
  return {
    collections: new Map(collectionRows.map((row) => [row.collection as string, row])),
    fields,
    relations: relationRows.map((row) => ({ ...row, one_allowed_collections: splitCsv(row.one_allowed_collections) }) as RelationRow),
  };
}
