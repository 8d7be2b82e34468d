import type { SnapshotDocument } from './types.ts';

/**
 * A desired document where every `is_indexed: null` (not managed: an older snapshot, or a file that leaves
 * the key out) takes the database's current value, so diff sees no change there and apply leaves the
 * index alone. A field that does not exist yet gets no index.
 */
export function adoptUnmanagedIndexes(desired: SnapshotDocument, current: SnapshotDocument): SnapshotDocument {
  const currentIndexed = new Map(current.fields.map((field) => [`${field.collection}.${field.field}`, field.schema?.is_indexed ?? false]));
  return {
    ...desired,
    fields: desired.fields.map((field) => {
      if (!field.schema || field.schema.is_indexed !== null) return field;
      return { ...field, schema: { ...field.schema, is_indexed: currentIndexed.get(`${field.collection}.${field.field}`) ?? false } };
    }),
  };
}
