import type { Access } from '../../permissions/access.ts';
import type { SchemaOverview } from '../../schema/overview.ts';
import { CONCEALED_PLACEHOLDER } from './prepare-payload.ts';
import { relationOf } from './relations.ts';

type Payload = Record<string, unknown>;

function isPlainObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An item payload kept apart from the item (a version's changes, a revision's data or delta) as a caller
 * may see it (`access` null: unrestricted): only the fields of `collection` it may read, concealed values
 * masked as reads mask them, and related items written through a relational field (an m2o or m2a object,
 * an o2m list or `{ create, update, delete }`) cut the same way for their own collection. Keys stay as they
 * are. Another user may have written any field the collection has, so every answer that shows such a
 * payload goes through this.
 */
export function readableChanges(schema: SchemaOverview, access: Access | null, collection: string, changes: Payload): Payload {
  const overview = Object.hasOwn(schema.collections, collection) ? schema.collections[collection] : undefined;
  if (!overview) return {};
  const allowed = access ? access.allowedFields(collection, 'read') : '*';
  // Built with fromEntries: a stored key such as "__proto__" stays an own field, never a prototype.
  return Object.fromEntries(
    Object.entries(changes)
      .filter(([field]) => allowed === '*' || allowed.has(field))
      .map(([field, value]) => {
        if (Object.hasOwn(overview.fields, field) && overview.fields[field]!.concealed) return [field, value === null || value === undefined ? value : CONCEALED_PLACEHOLDER];
        return [field, readableRelated(schema, access, collection, field, value, changes)];
      }),
  );
}

/** A relational field's value with the related items it writes cut to what the caller may read of them. */
function readableRelated(schema: SchemaOverview, access: Access | null, collection: string, field: string, value: unknown, changes: Payload): unknown {
  const relation = relationOf(schema, collection, field);
  if (!relation || value === null || typeof value !== 'object') return value;
  const cut = (related: string | null) => (item: unknown) => (isPlainObject(item) ? (related ? readableChanges(schema, access, related, item) : null) : item);
  if (relation.kind === 'm2o') return isPlainObject(value) ? cut(relation.relation.relatedCollection)(value) : null;
  if (relation.kind === 'm2a') {
    const named = relation.relation.meta.oneCollectionField ? changes[relation.relation.meta.oneCollectionField] : undefined;
    return isPlainObject(value) ? cut(typeof named === 'string' ? named : null)(value) : null;
  }
  const child = cut(relation.relation.collection);
  if (Array.isArray(value)) return value.map(child);
  const result: Payload = {};
  for (const part of ['create', 'update', 'delete'] as const) {
    const list = Object.hasOwn(value, part) ? (value as Payload)[part] : undefined;
    if (Array.isArray(list)) result[part] = part === 'delete' ? list.filter((key) => typeof key === 'string' || typeof key === 'number') : list.map(child);
  }
  return result;
}
