import type { RelationInfo } from '../content/schema/types.ts';
import { FILES_COLLECTION } from '../content/interfaces/related.ts';

/** One way items point at a file: a filter on `collection` that finds the items using file `id`. */
export interface FileReference {
  collection: string;
  /** The field named in the list: the file field (m2o) or the gallery (m2m alias). */
  field: string;
  filter(id: string): Record<string, unknown>;
}

/**
 * The fields of user collections that point at files: file and image fields (many-to-one to files) and
 * galleries (many-to-many through a junction), read from the relations. System collections (avatars, the
 * project logo) are left out: the page lists content.
 */
export function fileReferences(relations: RelationInfo[]): FileReference[] {
  const references: FileReference[] = [];
  for (const relation of relations) {
    if (relation.related_collection !== FILES_COLLECTION || relation.collection.startsWith('tessera_')) continue;
    const junctionField = relation.meta?.junction_field;
    if (!junctionField) {
      references.push({ collection: relation.collection, field: relation.field, filter: (id) => ({ [relation.field]: { _eq: id } }) });
      continue;
    }
    // A junction row: its other relation leads to the item, whose alias field holds the gallery.
    const parent = relations.find((other) => other.collection === relation.collection && other.field === junctionField);
    const alias = parent?.meta?.one_field;
    if (!parent?.related_collection || !alias || parent.related_collection.startsWith('tessera_')) continue;
    references.push({ collection: parent.related_collection, field: alias, filter: (id) => ({ [alias]: { [relation.field]: { _eq: id } } }) });
  }
  return references;
}
