import { findRelation } from '../query/schema-lookup.ts';
import { fieldTypeTraits } from '../schema/field-type-table.ts';
import type { FieldOverview, SchemaOverview } from '../schema/overview.ts';

/** A JSON Schema object as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

/** The JSON value REST returns for a field of this type (the field-type table: bigint and decimal as strings, geometries as GeoJSON). */
function scalarSchema(field: FieldOverview): JsonSchema {
  return structuredClone(fieldTypeTraits(field.type).json) as JsonSchema;
}

function withNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Object.keys(schema).length === 0) return schema; // json: any value, null included
  return { anyOf: [schema, { type: 'null' }] };
}

/** The component name Directus gives a collection: `ItemsArticles` for user collections, `Users` for tessera_users. */
export function componentName(collection: string, system: boolean): string {
  const base = system ? collection.replace(/^tessera_/, '') : collection;
  const pascal = base
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return system ? pascal : `Items${pascal}`;
}

/**
 * The schema of one field as the caller reads it: a relation is its key or the related object (a `$ref`) when the
 * caller may read that collection, an o2m a list of them, a many-to-any its key or any of the allowed collections
 * the caller may read; nullability from the column.
 */
export function fieldSchema(schema: SchemaOverview, collection: string, field: FieldOverview, refOf: (collection: string) => string | null): JsonSchema | null {
  const relation = findRelation(schema, collection, field.field);
  if (relation?.type === 'm2a') {
    // The column holds the key as text; read with nested fields it is the item of the collection its row names.
    const refs = relation.allowed.flatMap((related) => {
      const ref = refOf(related.collection);
      return ref ? [{ $ref: ref }] : [];
    });
    const key = field.alias ? { type: 'string' } : scalarSchema(field);
    const out = refs.length > 0 ? { anyOf: [key, ...refs] } : key;
    return field.nullable ? withNull(out) : out;
  }
  if (relation?.type === 'o2m') {
    const key = scalarSchema(relation.related.fields[relation.related.primary]!);
    const ref = refOf(relation.related.collection);
    return { type: 'array', items: ref ? { anyOf: [key, { $ref: ref }] } : key };
  }
  if (field.alias) return null;
  let out = scalarSchema(field);
  if (relation?.type === 'm2o') {
    const ref = refOf(relation.related.collection);
    if (ref) out = { anyOf: [out, { $ref: ref }] };
  }
  if (field.concealed) out = { ...out, description: 'Concealed: reads return a mask, never the value.' };
  if (field.maxLength !== null && out.type === 'string') out = { ...out, maxLength: field.maxLength };
  return field.nullable && !field.primaryKey ? withNull(out) : out;
}
