import type { RelationOverview, SchemaOverview } from '../../schema/overview.ts';

/** How a payload field of a collection relates to other items, if it does. */
export type RelationKind =
  | { kind: 'm2o'; relation: RelationOverview }
  | { kind: 'm2a'; relation: RelationOverview }
  | { kind: 'o2m'; relation: RelationOverview };

/** Finds the relation a field takes part in: an m2o/m2a key on this side, or an o2m alias (m2m goes through its junction). */
export function relationOf(schema: SchemaOverview, collection: string, field: string): RelationKind | null {
  for (const relation of schema.relations) {
    if (relation.collection === collection && relation.field === field) {
      return relation.relatedCollection === null ? { kind: 'm2a', relation } : { kind: 'm2o', relation };
    }
    if (relation.relatedCollection === collection && relation.meta.oneField === field) return { kind: 'o2m', relation };
  }
  return null;
}

/**
 * The key an m2o object value at `path` (dotted, from `collection`) links, as the write will store it:
 * `{ id: 5, … }` on an m2o to a collection keyed by `id` is 5. Undefined for anything else (a create, an
 * m2a or o2m value).
 */
export function linkedKey(schema: SchemaOverview, collection: string, path: string, value: Record<string, unknown>): unknown {
  let current = collection;
  const parts = path.split('.');
  for (const [index, field] of parts.entries()) {
    const relation = relationOf(schema, current, field);
    if (relation?.kind !== 'm2o' || !relation.relation.relatedCollection) return undefined;
    current = relation.relation.relatedCollection;
    if (index === parts.length - 1) {
      const key = value[schema.collections[current]?.primary ?? ''];
      return typeof key === 'string' || typeof key === 'number' ? key : undefined;
    }
  }
  return undefined;
}
