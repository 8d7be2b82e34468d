import type { RelationOverview, SchemaOverview } from '../../schema/overview.ts';
import { isSystemCollection } from '../../schema/system/index.ts';

/**
 * A relation in the Directus shape: `{ collection, field, related_collection, meta, schema }`. `meta` is
 * the tessera_relations row (system relations carry `system: true`; foreign keys made outside Tessera
 * have none); `schema` describes the foreign key, when there is one.
 */
export function relationResponse(schema: SchemaOverview, relation: RelationOverview): Record<string, unknown> {
  const { meta } = relation;
  const system = isSystemCollection(relation.collection);
  const related = relation.relatedCollection ? schema.collections[relation.relatedCollection] : undefined;
  return {
    collection: relation.collection,
    field: relation.field,
    related_collection: relation.relatedCollection,
    meta:
      meta.id === null && !system
        ? null
        : {
            id: meta.id,
            many_collection: relation.collection,
            many_field: relation.field,
            one_collection: relation.relatedCollection,
            one_field: meta.oneField,
            one_collection_field: meta.oneCollectionField,
            one_allowed_collections: meta.oneAllowedCollections,
            junction_field: meta.junctionField,
            sort_field: meta.sortField,
            one_deselect_action: meta.oneDeselectAction,
            ...(system ? { system: true } : {}),
          },
    schema: relation.schema
      ? {
          table: relation.collection,
          column: relation.field,
          foreign_key_table: relation.relatedCollection,
          foreign_key_column: related?.primary ?? null,
          constraint_name: relation.schema.constraintName,
          on_update: relation.schema.onUpdate,
          on_delete: relation.schema.onDelete,
        }
      : null,
  };
}
