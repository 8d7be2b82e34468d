import type { SystemCollection } from '../types.ts';
import type { DeselectAction } from './constants.ts';

/** A relation between system collections, shaped like a tessera_relations row (without `id`). */
export interface SystemRelation {
  many_collection: string;
  many_field: string;
  one_collection: string;
  one_field: string | null;
  one_collection_field: null;
  one_allowed_collections: null;
  junction_field: null;
  sort_field: null;
  one_deselect_action: DeselectAction;
}

/** The o2m alias on the "one" side of an m2o, keyed by `<many_collection>.<many_field>` (SPEC.md §3). */
const REVERSE_FIELDS: Readonly<Record<string, string>> = {
  'tessera_users.role': 'users',
  'tessera_panels.dashboard': 'panels',
  'tessera_operations.flow': 'operations',
  'tessera_revisions.activity': 'revisions',
};

/** Relations whose deselect deletes the child instead of nullifying it (SPEC.md §3). */
const DELETE_ON_DESELECT: ReadonlySet<string> = new Set(['tessera_operations.flow']);

/** One relation per m2o field of the given collections, with reverse fields and deselect actions. */
export function deriveSystemRelations(collections: readonly SystemCollection[]): SystemRelation[] {
  return collections.flatMap((collection) =>
    collection.fields
      .filter((field) => field.relatedCollection !== null)
      .map((field) => {
        const key = `${collection.collection}.${field.field}`;
        return {
          many_collection: collection.collection,
          many_field: field.field,
          one_collection: field.relatedCollection as string,
          one_field: REVERSE_FIELDS[key] ?? null,
          one_collection_field: null,
          one_allowed_collections: null,
          junction_field: null,
          sort_field: null,
          one_deselect_action: DELETE_ON_DESELECT.has(key) ? 'delete' : 'nullify',
        };
      }),
  );
}
