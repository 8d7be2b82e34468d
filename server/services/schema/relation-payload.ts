import * as yup from 'yup';
import { InvalidPayloadError } from '../../errors.ts';
import type { CollectionOverview, FieldOverview, SchemaOverview } from '../../schema/overview.ts';
import { DESELECT_ACTIONS, type DeselectAction } from '../../schema/system/constants.ts';
import { assertFieldName } from './identifiers.ts';
import { lenientObject, oneOfValues } from './yup-helpers.ts';

/** What the database does to an item when the item its foreign key points at is deleted. */
export const ON_DELETE_ACTIONS = ['SET NULL', 'CASCADE', 'NO ACTION', 'RESTRICT', 'SET DEFAULT'] as const;
/** An `on_delete` action. */
export type OnDeleteAction = (typeof ON_DELETE_ACTIONS)[number];

/** Relation metadata a client may set; the rest of a read `meta` object is accepted and ignored. */
export const relationMetaSchema = lenientObject({
    one_field: yup.string().nullable(),
    one_collection_field: yup.string().nullable(),
    one_allowed_collections: yup
      .array(yup.string().required())
      .transform((value, original) => (typeof original === 'string' ? original.split(',').map((item) => item.trim()).filter(Boolean) : value))
      .nullable(),
    junction_field: yup.string().nullable(),
    sort_field: yup.string().nullable(),
    one_deselect_action: oneOfValues(DESELECT_ACTIONS),
  })
  .nullable()
  .default(undefined);

/** The foreign key part of a relation: only `on_delete` can be chosen. */
export const relationSchemaSchema = lenientObject({
    on_delete: oneOfValues(ON_DELETE_ACTIONS),
  })
  .nullable()
  .default(undefined);

/** POST /relations. */
export const newRelationSchema = yup
  .object({
    collection: yup.string().required(),
    field: yup.string().required(),
    related_collection: yup.string().nullable().default(null),
    meta: relationMetaSchema,
    schema: relationSchemaSchema,
  })
  .exact();

/** PATCH /relations/:collection/:field; the three names are read-only echoes. */
export const relationUpdateSchema = yup
  .object({
    collection: yup.mixed().strip(),
    field: yup.mixed().strip(),
    related_collection: yup.mixed().strip(),
    meta: relationMetaSchema,
    schema: relationSchemaSchema,
  })
  .exact();

/** Validated relation metadata, every key resolved. */
export interface RelationMeta {
  one_field: string | null;
  one_collection_field: string | null;
  one_allowed_collections: string[] | null;
  junction_field: string | null;
  sort_field: string | null;
  one_deselect_action: DeselectAction;
}

function fail(field: string, message: string): never {
  throw new InvalidPayloadError(message, { field });
}

/** A column field of `collection` named by `meta.<key>`, or 400. */
function columnOf(collection: CollectionOverview, name: string, key: string): FieldOverview {
  const field = Object.hasOwn(collection.fields, name) ? collection.fields[name]! : null;
  if (!field || field.alias) fail(key, `${key} must name a field with a column in "${collection.collection}"; "${name}" is none.`);
  return field;
}

/**
 * Checks a relation's metadata against the schema: m2o fields take one_field, junction_field and
 * sort_field; m2a ones (no related collection) need one_collection_field and one_allowed_collections
 * and take no one_field.
 */
export function checkRelationMeta(schema: SchemaOverview, many: CollectionOverview, field: string, related: CollectionOverview | null, meta: RelationMeta): void {
  for (const key of ['junction_field', 'sort_field'] as const) {
    const value = meta[key];
    if (!value) continue;
    if (value === field) fail(`meta.${key}`, `meta.${key} must name another field of "${many.collection}" than the relation's own.`);
    columnOf(many, value, `meta.${key}`);
  }
  if (related) {
    if (meta.one_collection_field || meta.one_allowed_collections) {
      fail('meta.one_collection_field', 'one_collection_field and one_allowed_collections are only for m2a relations (related_collection null).');
    }
    if (meta.one_field) {
      assertFieldName(meta.one_field, 'meta.one_field');
      if (related.system) fail('meta.one_field', `System collection "${related.collection}" can't get an o2m field.`);
      const existing = Object.hasOwn(related.fields, meta.one_field) ? related.fields[meta.one_field] : undefined;
      if (existing && !existing.alias) fail('meta.one_field', `"${meta.one_field}" is a column of "${related.collection}", not an alias field.`);
      const taken = schema.relations.some(
        (relation) => relation.relatedCollection === related.collection && relation.meta.oneField === meta.one_field && !(relation.collection === many.collection && relation.field === field),
      );
      if (taken) fail('meta.one_field', `"${meta.one_field}" of "${related.collection}" already belongs to another relation.`);
    }
    return;
  }
  if (meta.one_field) fail('meta.one_field', 'An m2a relation (related_collection null) has no one_field.');
  if (!meta.one_collection_field) fail('meta.one_collection_field', 'An m2a relation (related_collection null) needs meta.one_collection_field.');
  if (meta.one_collection_field === field) fail('meta.one_collection_field', 'meta.one_collection_field must be another field than the relation\'s own.');
  columnOf(many, meta.one_collection_field, 'meta.one_collection_field');
  if (!meta.one_allowed_collections?.length) fail('meta.one_allowed_collections', 'An m2a relation needs meta.one_allowed_collections.');
  for (const name of meta.one_allowed_collections) {
    if (!Object.hasOwn(schema.collections, name) || !schema.collections[name]!.table) {
      fail('meta.one_allowed_collections', `meta.one_allowed_collections names "${name}", which is not a collection with a table.`);
    }
  }
}

/** Throws 400 unless the field can hold keys of `related` (same column type as its primary key). */
export function checkKeyType(field: FieldOverview, related: CollectionOverview): void {
  const key = related.fields[related.primary];
  if (key && key.dbType !== field.dbType) {
    fail('field', `Field "${field.field}" (${field.dbType}) can't hold keys of "${related.collection}", whose primary key is ${key.dbType}.`);
  }
}
