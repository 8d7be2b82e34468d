import { InvalidQueryError } from '../errors.ts';
import type { CompileContext, Scope } from './context.ts';
import { fieldFor, type FieldUse } from './policy.ts';
import { findCollection, type OneToMany } from './schema-lookup.ts';

const FOLLOW = /^\$FOLLOW\(\s*([^,\s()]+)\s*,\s*([^,\s()]+)\s*\)$/;

/**
 * Directus's `$FOLLOW(collection, field)` filter key: the items of `collection` whose many-to-one `field`
 * points at the filtered item, as if an o2m alias existed (`{"$FOLLOW(articles,author)":{"_some":{…}}}`).
 * Null when `key` is not one; a 400 naming the key when no such relation exists. The caller must be allowed
 * to read `field`, as for any field a filter uses.
 */
export function followRelation(ctx: CompileContext, scope: Scope, key: string, use: FieldUse): OneToMany | null {
  const match = FOLLOW.exec(key);
  if (!match) return null;
  const [, collection, field] = match as unknown as [string, string, string];
  const relation = ctx.schema.relations.find((candidate) => candidate.collection === collection && candidate.field === field && candidate.relatedCollection === scope.collection.collection);
  const related = relation ? findCollection(ctx.schema, collection) : undefined;
  if (!relation || !related) {
    throw new InvalidQueryError(`"${key}": no many-to-one field "${field}" of "${collection}" points at "${scope.collection.collection}".`, { field: key });
  }
  fieldFor(ctx, related, field, use);
  return { type: 'o2m', related, foreignKey: field, relation };
}
