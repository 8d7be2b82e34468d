import { fieldTypeTraits } from '../../schema/field-type-table.ts';
import type { CollectionOverview, FieldOverview, SchemaOverview } from '../../schema/overview.ts';
import { foreignKeyRelation } from './schema-lists.ts';

/** A field in the Directus shape: `{ collection, field, type, meta, schema }`; aliases have `schema: null`. */
export function fieldResponse(schema: SchemaOverview, collection: CollectionOverview, field: FieldOverview): Record<string, unknown> {
  const relation = foreignKeyRelation(schema, collection.collection, field.field);
  const related = relation?.relatedCollection ? schema.collections[relation.relatedCollection] : undefined;
  const meta = field.meta ? { collection: collection.collection, field: field.field, ...field.meta, ...(collection.system ? { system: true } : {}) } : null;
  return {
    collection: collection.collection,
    field: field.field,
    type: field.type,
    meta,
    schema: field.alias
      ? null
      : {
          name: field.field,
          table: collection.collection,
          data_type: field.dbType,
          default_value: field.defaultValue,
          max_length: field.maxLength,
          numeric_precision: field.precision,
          numeric_scale: field.scale,
          is_nullable: field.nullable,
          is_unique: field.unique,
          is_indexed: field.indexed,
          is_primary_key: field.primaryKey,
          has_auto_increment: field.primaryKey && field.generated && fieldTypeTraits(field.type).primaryKey === 'identity',
          foreign_key_table: related ? related.collection : null,
          foreign_key_column: related ? related.primary : null,
        },
  };
}
