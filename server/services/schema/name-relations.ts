import type { RelationOverview } from '../../schema/overview.ts';

/**
 * System relations that join by a field's NAME rather than by the related collection's key, so the query
 * engine cannot follow them like an m2o (a `group.*` join on `tessera_fields.id` would be wrong): they are
 * listed by /relations and kept out of the schema overview the queries walk.
 *
 * fields.group → fields (SPEC.md §3): `tessera_fields.group` holds the name of another field of the same
 * collection; the database enforces it with the composite key ("collection", "group") → ("collection",
 * "field") of the first migration, which follows renames (on update cascade) and empties `group` when the
 * group field is deleted (on delete set null).
 */
export const NAME_RELATIONS: readonly RelationOverview[] = Object.freeze([
  {
    collection: 'tessera_fields',
    field: 'group',
    relatedCollection: 'tessera_fields',
    meta: { id: null, oneField: null, oneCollectionField: null, oneAllowedCollections: null, junctionField: null, sortField: null, oneDeselectAction: 'nullify' },
    schema: { constraintName: 'tessera_fields_group_foreign', onDelete: 'SET NULL', onUpdate: 'CASCADE' },
  },
]);

/** How each name relation matches rows: its columns and the related columns they equal, in order. */
const MATCHES: Readonly<Record<string, { columns: string[]; foreign_key_columns: string[] }>> = {
  'tessera_fields.group': { columns: ['collection', 'group'], foreign_key_columns: ['collection', 'field'] },
};

/**
 * The Directus-shaped response of a name relation: a system relation whose `schema.foreign_key_column`
 * is the name column (`field`), and whose `meta.match` and `schema.columns` say the match is by name
 * within the same collection.
 */
export function nameRelationResponse(relation: RelationOverview): Record<string, unknown> {
  const match = MATCHES[`${relation.collection}.${relation.field}`]!;
  return {
    collection: relation.collection,
    field: relation.field,
    related_collection: relation.relatedCollection,
    meta: {
      id: null,
      many_collection: relation.collection,
      many_field: relation.field,
      one_collection: relation.relatedCollection,
      one_field: null,
      one_collection_field: null,
      one_allowed_collections: null,
      junction_field: null,
      sort_field: null,
      one_deselect_action: relation.meta.oneDeselectAction,
      system: true,
      match: 'name-within-collection',
    },
    schema: {
      table: relation.collection,
      column: relation.field,
      foreign_key_table: relation.relatedCollection,
      foreign_key_column: match.foreign_key_columns.at(-1),
      constraint_name: relation.schema!.constraintName,
      on_update: relation.schema!.onUpdate,
      on_delete: relation.schema!.onDelete,
      columns: match.columns,
      foreign_key_columns: match.foreign_key_columns,
    },
  };
}
