import { ForbiddenError } from '../../errors.ts';
import type { CollectionOverview, FieldOverview, SchemaOverview } from '../../schema/overview.ts';

/** The collection named `name`; 403 when there is none, so existence never leaks. */
export function findCollection(schema: SchemaOverview, name: string): CollectionOverview {
  const collection = Object.hasOwn(schema.collections, name) ? schema.collections[name] : undefined;
  if (!collection) throw new ForbiddenError();
  return collection;
}

/** The user collection named `name`; 403 for unknown and system collections (their schema is fixed). */
export function findUserCollection(schema: SchemaOverview, name: string): CollectionOverview {
  const collection = findCollection(schema, name);
  if (collection.system) throw new ForbiddenError(`System collection "${name}" can't be changed.`);
  return collection;
}

/** The field `name` of `collection`; 403 when there is none. */
export function findField(collection: CollectionOverview, name: string): FieldOverview {
  const field = Object.hasOwn(collection.fields, name) ? collection.fields[name] : undefined;
  if (!field) throw new ForbiddenError();
  return field;
}
