import * as yup from 'yup';
import type { CollectionOverview } from '../../schema/overview.ts';
import { COLLECTION_META_COLUMNS } from '../../schema/read-metadata.ts';
import { ACCOUNTABILITY_VALUES, COLLECTION_COLLAPSE_STATES } from '../../schema/system/constants.ts';
import { getSystemCollection } from '../../schema/system/index.ts';
import { lenientObject, oneOfValues, translationsSchema } from './yup-helpers.ts';

/** Collection settings a client may set (SPEC.md §3 "Collection settings"); other keys (collection, system, Directus-only ones) are ignored. */
export const collectionMetaSchema = lenientObject({
    note: yup.string().nullable(),
    icon: yup.string().max(64).nullable(),
    color: yup.string().max(255).nullable(),
    display_template: yup.string().max(255).nullable(),
    hidden: yup.boolean(),
    singleton: yup.boolean(),
    translations: translationsSchema({ singular: yup.string().nullable(), plural: yup.string().nullable() }),
    preview_url: yup.string().max(255).nullable(),
    versioning: yup.boolean(),
    archive_field: yup.string().max(64).nullable(),
    archive_app_filter: yup.boolean(),
    archive_value: yup.string().max(255).nullable(),
    unarchive_value: yup.string().max(255).nullable(),
    sort_field: yup.string().max(64).nullable(),
    accountability: oneOfValues(ACCOUNTABILITY_VALUES),
    item_duplication_fields: yup.array(yup.string().required()).nullable(),
    sort: yup.number().integer().nullable(),
    group: yup.string().max(64).nullable(),
    collapse: oneOfValues(COLLECTION_COLLAPSE_STATES),
  })
  .nullable()
  .default(undefined);

/** Validated collection settings. */
export type CollectionMetaInput = Partial<NonNullable<yup.InferType<typeof collectionMetaSchema>>>;

/** Settings as tessera_collections stores them (JSON columns serialised: node-postgres would send arrays as PostgreSQL arrays). */
export function collectionMetaRow(meta: CollectionMetaInput): Record<string, unknown> {
  const row: Record<string, unknown> = { ...meta };
  for (const column of ['translations', 'item_duplication_fields'] as const) {
    if (meta[column] !== undefined) row[column] = meta[column] === null ? null : JSON.stringify(meta[column]);
  }
  return row;
}

/** What a tessera_collections row holds when a column is not set. */
const META_DEFAULTS: Readonly<Record<string, unknown>> = {
  hidden: false,
  singleton: false,
  archive_app_filter: true,
  accountability: 'all',
  collapse: 'open',
  versioning: false,
};

/** The collection meta of a system collection, shaped like a tessera_collections row plus `system: true`. */
function systemMeta(overview: CollectionOverview): Record<string, unknown> {
  const system = getSystemCollection(overview.collection);
  const known: Record<string, unknown> = { ...system?.meta, collection: overview.collection, singleton: overview.singleton };
  const meta = Object.fromEntries(COLLECTION_META_COLUMNS.map((column) => [column, known[column] !== undefined ? known[column] : (META_DEFAULTS[column] ?? null)]));
  return { ...meta, system: true };
}

/** A collection in the Directus shape: `{ collection, meta, schema: { name } | null }`. */
export function collectionResponse(overview: CollectionOverview): Record<string, unknown> {
  return {
    collection: overview.collection,
    meta: overview.system ? systemMeta(overview) : overview.meta,
    schema: overview.table ? { name: overview.collection } : null,
  };
}
