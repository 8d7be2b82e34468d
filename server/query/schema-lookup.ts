import type { CollectionOverview, FieldOverview, RelationOverview, SchemaOverview } from '../schema/overview.ts';

/** A field that reads a related item: `collection.field` holds the key of an item of `related`. */
export interface ManyToOne {
  type: 'm2o';
  related: CollectionOverview;
  relation: RelationOverview;
}

/** An alias field listing the items of `related` whose `foreignKey` holds this item's key (o2m, and m2m to the junction). */
export interface OneToMany {
  type: 'o2m';
  related: CollectionOverview;
  foreignKey: string;
  relation: RelationOverview;
}

/** A field of a junction holding the key of an item of any of `allowed`, named by `collectionField`. */
export interface ManyToAny {
  type: 'm2a';
  collectionField: string;
  allowed: CollectionOverview[];
  relation: RelationOverview;
}

/** How a field relates to other collections. */
export type RelationInfo = ManyToOne | OneToMany | ManyToAny;

/** The collection named `name`, or undefined (own properties only: input never reaches the prototype). */
export function findCollection(schema: SchemaOverview, name: string): CollectionOverview | undefined {
  const collection = Object.hasOwn(schema.collections, name) ? schema.collections[name] : undefined;
  return collection?.table ? collection : undefined;
}

/** The field named `name` of `collection`, or undefined. */
export function findField(collection: CollectionOverview, name: string): FieldOverview | undefined {
  return Object.hasOwn(collection.fields, name) ? collection.fields[name] : undefined;
}

/** The primary-key field of `collection`. */
export function primaryField(collection: CollectionOverview): FieldOverview {
  const field = findField(collection, collection.primary);
  if (!field) throw new Error(`Collection "${collection.collection}" has no primary-key field "${collection.primary}"`);
  return field;
}

/** How `collection.field` relates to other collections, or null for a plain column. */
export function findRelation(schema: SchemaOverview, collection: string, field: string): RelationInfo | null {
  for (const relation of schema.relations) {
    if (relation.collection === collection && relation.field === field) {
      if (relation.relatedCollection !== null) {
        const related = findCollection(schema, relation.relatedCollection);
        if (related) return { type: 'm2o', related, relation };
      } else if (relation.meta.oneCollectionField) {
        const allowed = (relation.meta.oneAllowedCollections ?? []).flatMap((name) => findCollection(schema, name) ?? []);
        return { type: 'm2a', collectionField: relation.meta.oneCollectionField, allowed, relation };
      }
    }
    if (relation.relatedCollection === collection && relation.meta.oneField === field) {
      const related = findCollection(schema, relation.collection);
      if (related) return { type: 'o2m', related, foreignKey: relation.field, relation };
    }
  }
  return null;
}

/** True for fields with no column and no relation (groups, presentation): they carry no data. */
export function isDataless(schema: SchemaOverview, collection: string, field: FieldOverview): boolean {
  return field.alias && findRelation(schema, collection, field.field)?.type !== 'o2m';
}
