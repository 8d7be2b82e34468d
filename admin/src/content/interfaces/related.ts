import { guessTemplate, templateFields } from '../display-template.ts';
import type { SchemaState } from '../schema/schema-context.tsx';
import type { FieldInfo } from '../schema/types.ts';

/** How a relational field reaches its related items. */
export interface RelatedTarget {
  /** The collection whose items are picked. */
  collection: string;
  primaryKey: string;
  template: string;
  /**
   * m2m/files/translations: the junction collection, its key, its field pointing at the picked collection,
   * and its field pointing back at this item (the API fills it on save).
   */
  junction?: { collection: string; primaryKey: string; field: string; backField: string };
  /** o2m: the related collection's m2o field pointing back at this item (the API fills it on save). */
  backField?: string;
  /**
   * m2a: `collection`/`primaryKey` are the junction's, `backField` its key pointing back at this item; each
   * junction row names its item's collection in `collectionField` and its key in `itemField`.
   */
  any?: { itemField: string; collectionField: string; allowed: AnyCollection[] };
}

/** One collection a many-to-any field may hold items of, with the template its items are shown with. */
export interface AnyCollection {
  collection: string;
  primaryKey: string;
  template: string;
}

/** A collection's display template (`meta.display_template`), or a guess from its fields. */
export function templateOf(schema: SchemaState, collection: string): string {
  const primaryKey = schema.primaryKeyOf(collection);
  return schema.collection(collection)?.meta?.display_template || guessTemplate(schema.fieldsOf(collection), primaryKey);
}

/** The system collection of files: its items are shown with a thumbnail, which needs their type. */
export const FILES_COLLECTION = 'tessera_files';

/** The system collection of users: its items are shown with their avatar. */
export const USERS_COLLECTION = 'tessera_users';

/** The fields to read for showing items of a collection: its key and the template's fields. */
export function labelFields(schema: SchemaState, collection: string): string[] {
  const extra = collection === FILES_COLLECTION ? ['type', 'title', 'filename_download'] : collection === USERS_COLLECTION ? ['avatar'] : [];
  return [...new Set([schema.primaryKeyOf(collection), ...templateFields(templateOf(schema, collection)), ...extra])];
}

function target(schema: SchemaState, collection: string | null | undefined): Omit<RelatedTarget, 'junction'> | null {
  if (!collection) return null;
  return { collection, primaryKey: schema.primaryKeyOf(collection), template: templateOf(schema, collection) };
}

/** The related collection of an m2o, o2m or m2m/files field, from the relations. */
export function relatedTarget(schema: SchemaState, field: FieldInfo): RelatedTarget | null {
  const special = field.meta?.special ?? [];
  if (field.type !== 'alias') {
    // A field with a stored relation is a many-to-one, whatever its specials say.
    const relation = schema.relations.find((entry) => entry.collection === field.collection && entry.field === field.field);
    return target(schema, relation?.related_collection);
  }
  const reverse = schema.relations.find((entry) => entry.related_collection === field.collection && entry.meta?.one_field === field.field);
  if (!reverse) return null;
  if (special.includes('o2m')) {
    const related = target(schema, reverse.collection);
    return related && { ...related, backField: reverse.field };
  }
  const junctionField = reverse.meta?.junction_field;
  if (!junctionField) return null;
  const onward = schema.relations.find((entry) => entry.collection === reverse.collection && entry.field === junctionField);
  if (special.includes('m2a')) return manyToAnyTarget(schema, reverse.collection, reverse.field, onward);
  const related = target(schema, onward?.related_collection);
  if (!related) return null;
  return { ...related, junction: { collection: reverse.collection, primaryKey: schema.primaryKeyOf(reverse.collection), field: junctionField, backField: reverse.field } };
}

/** The key of an item given as an object or as its key. */
export function keyOf(item: unknown, primaryKey: string): string | number | null {
  if (item === null || item === undefined) return null;
  if (typeof item === 'object') return ((item as Record<string, unknown>)[primaryKey] as string | number | undefined) ?? null;
  return item as string | number;
}

/** A many-to-any field's junction and the collections its items may come from (each with its own template). */
function manyToAnyTarget(schema: SchemaState, junction: string, backField: string, onward: SchemaState['relations'][number] | undefined): RelatedTarget | null {
  const collectionField = onward?.meta?.one_collection_field;
  if (!onward || onward.related_collection !== null || !collectionField) return null;
  const allowed = (onward.meta?.one_allowed_collections ?? []).filter((name) => schema.collection(name)).map((name) => target(schema, name)!);
  return { collection: junction, primaryKey: schema.primaryKeyOf(junction), template: '', backField, any: { itemField: onward.field, collectionField, allowed } };
}
