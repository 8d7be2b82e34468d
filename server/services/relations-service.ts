import type * as yup from 'yup';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import type { CollectionOverview, RelationOverview, SchemaOverview } from '../schema/overview.ts';
import type { SchemaCache } from '../schema/schema-cache.ts';
import { requireSchemaWrite, schemaVisibility, type SchemaVisibility } from './schema/access.ts';
import { findCollection, findUserCollection } from './schema/lookup.ts';
import { dropRelation } from './schema/relation-cleanup.ts';
import {
  checkKeyType,
  checkRelationMeta,
  newRelationSchema,
  relationUpdateSchema,
  type OnDeleteAction,
  type RelationMeta,
  type relationMetaSchema,
} from './schema/relation-payload.ts';
import { NAME_RELATIONS, nameRelationResponse } from './schema/name-relations.ts';
import { relationResponse } from './schema/relation-response.ts';
import {
  addForeignKey,
  dropForeignKey,
  ensureReverseAlias,
  linkJunctionPartner,
  markManyToOne,
  promotePartnerAlias,
  relationRow,
} from './schema/relation-writes.ts';
import { currentSchema, runSchemaChange, withRelated } from './schema/schema-change.ts';
import { listPerSchema } from './schema/schema-lists.ts';
import { validatePayload } from './validate-payload.ts';
import type { ServiceContext } from './service-context.ts';

/** A relation in the Directus shape. */
export type RelationResponse = Record<string, unknown>;

/** The relation stored on `collection.field`; 403 when there is none. */
function findRelation(schema: SchemaOverview, collection: string, field: string): RelationOverview {
  const relation = schema.relations.find((item) => item.collection === collection && item.field === field);
  if (!relation) throw new ForbiddenError();
  return relation;
}

/** `meta` of a payload laid over `base`, keys the payload leaves out keeping their value. */
function mergeMeta(base: RelationMeta, input: yup.InferType<typeof relationMetaSchema>): RelationMeta {
  const merged = { ...base };
  for (const [key, value] of Object.entries(input ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

const EMPTY_META: RelationMeta = {
  one_field: null,
  one_collection_field: null,
  one_allowed_collections: null,
  junction_field: null,
  sort_field: null,
  one_deselect_action: 'nullify',
};

/** Throws 400 when SET NULL is asked of a field that can't be null. */
function checkOnDelete(many: CollectionOverview, field: string, onDelete: OnDeleteAction): void {
  if (onDelete === 'SET NULL' && !many.fields[field]!.nullable) {
    throw new InvalidPayloadError(`schema.on_delete can't be SET NULL: field "${field}" is not nullable.`, { field: 'schema.on_delete' });
  }
}

/**
 * Relations: m2o (a foreign key plus a tessera_relations row, whose `one_field` is the o2m alias on the
 * related collection), m2m and translations (two m2o relations from a junction collection linked by
 * `junction_field`), m2a (no related collection, no foreign key: `one_collection_field` names the
 * collection of each item, `one_allowed_collections` which ones may be used).
 */
export class RelationsService {
  readonly #context: ServiceContext;
  readonly #cache: SchemaCache;

  constructor(context: ServiceContext, cache: SchemaCache) {
    this.#context = context;
    this.#cache = cache;
  }

  /** Every relation, system ones included (built once per schema overview and visibility, then shared). */
  async readAll(): Promise<readonly RelationResponse[]> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_relations');
    return listPerSchema(schema, visible.key, 'relations', () => [
      ...schema.relations.filter((relation) => relationVisible(visible, relation)).map((relation) => relationResponse(schema, relation)),
      ...NAME_RELATIONS.filter((relation) => relationVisible(visible, relation)).map(nameRelationResponse),
    ]);
  }

  /** The relations stored on the fields of one collection; 403 when it does not exist. */
  async readAllInCollection(collection: string): Promise<RelationResponse[]> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_relations');
    if (!visible.collection(collection)) throw new ForbiddenError();
    findCollection(schema, collection);
    const inCollection = (relation: RelationOverview) => relation.collection === collection && relationVisible(visible, relation);
    return [...schema.relations.filter(inCollection).map((relation) => relationResponse(schema, relation)), ...NAME_RELATIONS.filter(inCollection).map(nameRelationResponse)];
  }

  /** The relation of one field; 403 when there is none. */
  async readOne(collection: string, field: string): Promise<RelationResponse> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_relations');
    const byName = NAME_RELATIONS.find((relation) => relation.collection === collection && relation.field === field);
    const relation = byName ?? findRelation(schema, collection, field);
    if (!relationVisible(visible, relation)) throw new ForbiddenError();
    return byName ? nameRelationResponse(byName) : relationResponse(schema, relation);
  }

  /** Creates a relation, its foreign key (m2o with `schema` not null) and its reverse alias, in one transaction. */
  async createOne(payload: unknown): Promise<RelationResponse> {
    requireSchemaWrite(this.#context.accountability);
    const input = validatePayload(newRelationSchema, payload);
    const schema = await currentSchema(this.#context, this.#cache);
    const many = findUserCollection(schema, input.collection);
    const field = Object.hasOwn(many.fields, input.field) ? many.fields[input.field] : undefined;
    if (!field || field.alias) throw new InvalidPayloadError(`Field "${input.field}" of "${many.collection}" does not exist or has no column.`, { field: 'field' });
    if (schema.relations.some((relation) => relation.collection === many.collection && relation.field === field.field)) {
      throw new InvalidPayloadError(`Field "${field.field}" of "${many.collection}" already has a relation.`, { field: 'field' });
    }
    const related = this.#relatedCollection(schema, input.related_collection ?? null);
    if (related) checkKeyType(field, related);
    const meta = mergeMeta(EMPTY_META, input.meta);
    // The partner already names this field as its junction field: the link goes both ways.
    meta.junction_field ??= schema.relations.find((relation) => relation.collection === many.collection && relation.meta.junctionField === field.field)?.field ?? null;
    checkRelationMeta(schema, many, field.field, related, meta);
    const onDelete = (input.schema?.on_delete ?? 'SET NULL') as OnDeleteAction;
    const withForeignKey = related !== null && input.schema !== null;
    if (withForeignKey) checkOnDelete(many, field.field, onDelete);

    await runSchemaChange(this.#context, this.#cache, withRelated(schema, [many.collection, related?.collection]), async (trx) => {
      if (withForeignKey) await addForeignKey(trx, many.collection, field.field, related, onDelete);
      await trx
        .insertInto('tessera_relations')
        .values({ ...relationRow(meta), many_collection: many.collection, many_field: field.field, one_collection: related?.collection ?? null })
        .execute();
      if (related) {
        await ensureReverseAlias(trx, schema, many.collection, related, meta);
        if (!meta.junction_field) await markManyToOne(trx, many, field.field);
      } else {
        await promotePartnerAlias(trx, schema, many.collection, meta.junction_field);
      }
      await linkJunctionPartner(trx, many.collection, field.field, meta.junction_field);
    });
    return this.readOne(many.collection, field.field);
  }

  /** Updates a relation's metadata and its foreign key's on_delete; the fields it joins can't change. */
  async updateOne(collection: string, field: string, payload: unknown): Promise<RelationResponse> {
    requireSchemaWrite(this.#context.accountability);
    const schema = await currentSchema(this.#context, this.#cache);
    const many = findUserCollection(schema, collection);
    const relation = findRelation(schema, collection, field);
    const input = validatePayload(relationUpdateSchema, payload);
    const current: RelationMeta = {
      one_field: relation.meta.oneField,
      one_collection_field: relation.meta.oneCollectionField,
      one_allowed_collections: relation.meta.oneAllowedCollections,
      junction_field: relation.meta.junctionField,
      sort_field: relation.meta.sortField,
      one_deselect_action: relation.meta.oneDeselectAction,
    };
    const meta = mergeMeta(current, input.meta);
    const related = relation.relatedCollection ? (schema.collections[relation.relatedCollection] ?? null) : null;
    checkRelationMeta(schema, many, field, related, meta);
    const onDelete = input.schema?.on_delete as OnDeleteAction | undefined;
    const rebuildKey = related !== null && onDelete !== undefined && onDelete !== relation.schema?.onDelete;
    if (rebuildKey) checkOnDelete(many, field, onDelete);

    await runSchemaChange(this.#context, this.#cache, withRelated(schema, [collection, related?.collection]), async (trx) => {
      if (rebuildKey) {
        await dropForeignKey(trx, relation);
        await addForeignKey(trx, collection, field, related, onDelete);
      }
      if (relation.meta.id === null) {
        await trx.insertInto('tessera_relations').values({ ...relationRow(meta), many_collection: collection, many_field: field, one_collection: related?.collection ?? null }).execute();
      } else {
        await trx.updateTable('tessera_relations').set(relationRow(meta)).where('id', '=', relation.meta.id).execute();
      }
      if (related && meta.one_field !== current.one_field) {
        if (current.one_field && related.fields[current.one_field]?.alias) {
          await trx.deleteFrom('tessera_fields').where('collection', '=', related.collection).where('field', '=', current.one_field).execute();
        }
        await ensureReverseAlias(trx, schema, collection, related, meta);
      }
      if (meta.junction_field !== current.junction_field) await linkJunctionPartner(trx, collection, field, meta.junction_field);
    });
    return this.readOne(collection, field);
  }

  /** Deletes a relation: its foreign key, its row, its reverse alias and its junction link. */
  async deleteOne(collection: string, field: string): Promise<void> {
    requireSchemaWrite(this.#context.accountability);
    const schema = await currentSchema(this.#context, this.#cache);
    findUserCollection(schema, collection);
    const relation = findRelation(schema, collection, field);
    await runSchemaChange(this.#context, this.#cache, withRelated(schema, [collection, relation.relatedCollection]), (trx) => dropRelation(trx, schema, relation, true));
  }

  /** The collection an m2o points at, or null for m2a; 400 when it does not exist or has no table. */
  #relatedCollection(schema: SchemaOverview, name: string | null): CollectionOverview | null {
    if (name === null) return null;
    const related = Object.hasOwn(schema.collections, name) ? schema.collections[name] : undefined;
    if (!related?.table) throw new InvalidPayloadError(`related_collection "${name}" is not a collection with a table.`, { field: 'related_collection' });
    return related;
  }
}

/** A relation is visible when the caller may read the field that holds it (and the related collection, if any). */
function relationVisible(visible: SchemaVisibility, relation: RelationOverview): boolean {
  return visible.field(relation.collection, relation.field) && (relation.relatedCollection === null || visible.collection(relation.relatedCollection));
}
