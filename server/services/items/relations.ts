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
