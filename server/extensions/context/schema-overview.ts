import type { AppContext } from '../../app-context.ts';
import type { CollectionOverview, FieldOverview, RelationOverview, SchemaOverview } from '../../schema/overview.ts';
import { toDirectusCollection } from './collection-names.ts';

/** One field as Directus's SchemaOverview describes it. */
export interface DirectusFieldOverview {
  field: string;
  defaultValue: unknown;
  nullable: boolean;
  generated: boolean;
  type: string;
  dbType: string | null;
  precision: number | null;
  scale: number | null;
  special: string[];
  note: string | null;
  alias: boolean;
  validation: Record<string, unknown> | null;
}

/** One collection as Directus's SchemaOverview describes it. */
export interface DirectusCollectionOverview {
  collection: string;
  primary: string;
  singleton: boolean;
  note: string | null;
  sortField: string | null;
  accountability: 'all' | 'activity' | null;
  fields: Record<string, DirectusFieldOverview>;
}

/** A relation as Directus's SchemaOverview lists it (a directus_relations row plus the foreign key). */
export interface DirectusRelation {
  collection: string;
  field: string;
  related_collection: string | null;
  schema: {
    table: string;
    column: string;
    foreign_key_table: string;
    foreign_key_column: string;
    constraint_name: string;
    on_update: string;
    on_delete: string;
  } | null;
  meta: {
    id: number | null;
    many_collection: string;
    many_field: string;
    one_collection: string | null;
    one_field: string | null;
    one_collection_field: string | null;
    one_allowed_collections: string[] | null;
    junction_field: string | null;
    sort_field: string | null;
    one_deselect_action: 'nullify' | 'delete';
  };
}

/**
 * Directus's SchemaOverview: what `getSchema()` gives extensions and services take as `schema`. A type
 * alias, so it is also a `Record<string, unknown>` for code that passes it on unread.
 */
export type DirectusSchemaOverview = {
  collections: Record<string, DirectusCollectionOverview>;
  relations: DirectusRelation[];
};

/** Each Tessera overview's translation, made once (the cached overview object lives until the schema changes). */
const translated = new WeakMap<SchemaOverview, DirectusSchemaOverview>();

/**
 * The schema overview in Directus's shape, from Tessera's cached overview: system collections under their
 * `directus_*` names, folder collections (no table) left out as in Directus. `options.database` is accepted
 * for compatibility; the overview is the app's current one either way.
 */
export async function getSchema(app: AppContext, _options: { database?: unknown } = {}): Promise<DirectusSchemaOverview> {
  const schema = await app.schema.get();
  let result = translated.get(schema);
  if (!result) {
    result = toDirectusSchema(schema);
    translated.set(schema, result);
  }
  return result;
}

/** Tessera's overview in Directus's shape. */
export function toDirectusSchema(schema: SchemaOverview): DirectusSchemaOverview {
  const collections: Record<string, DirectusCollectionOverview> = {};
  for (const overview of Object.values(schema.collections)) {
    if (!overview.table) continue;
    const name = toDirectusCollection(overview.collection);
    collections[name] = collectionOverview(name, overview);
  }
  return { collections, relations: schema.relations.map((item) => relation(schema, item)) };
}

function collectionOverview(name: string, overview: CollectionOverview): DirectusCollectionOverview {
  const note = overview.meta?.note;
  return {
    collection: name,
    primary: overview.primary,
    singleton: overview.singleton,
    note: typeof note === 'string' ? note : null,
    sortField: overview.sortField,
    accountability: overview.accountability,
    fields: Object.fromEntries(Object.values(overview.fields).map((field) => [field.field, fieldOverview(field)])),
  };
}

function fieldOverview(field: FieldOverview): DirectusFieldOverview {
  return {
    field: field.field,
    defaultValue: field.defaultValue,
    nullable: field.nullable,
    generated: field.generated,
    type: field.type,
    dbType: field.dbType,
    precision: field.precision,
    scale: field.scale,
    special: [...field.special],
    note: field.meta?.note ?? null,
    alias: field.alias,
    validation: field.meta?.validation ?? null,
  };
}

function relation(schema: SchemaOverview, item: RelationOverview): DirectusRelation {
  const many = toDirectusCollection(item.collection);
  const one = item.relatedCollection === null ? null : toDirectusCollection(item.relatedCollection);
  const related = item.relatedCollection === null ? undefined : schema.collections[item.relatedCollection];
  return {
    collection: many,
    field: item.field,
    related_collection: one,
    schema:
      item.schema && one !== null
        ? {
            table: many,
            column: item.field,
            foreign_key_table: one,
            foreign_key_column: related?.primary ?? 'id',
            constraint_name: item.schema.constraintName,
            on_update: item.schema.onUpdate,
            on_delete: item.schema.onDelete,
          }
        : null,
    meta: {
      id: item.meta.id,
      many_collection: many,
      many_field: item.field,
      one_collection: one,
      one_field: item.meta.oneField,
      one_collection_field: item.meta.oneCollectionField,
      one_allowed_collections: item.meta.oneAllowedCollections?.map(toDirectusCollection) ?? null,
      junction_field: item.meta.junctionField,
      sort_field: item.meta.sortField,
      one_deselect_action: item.meta.oneDeselectAction,
    },
  };
}
