import { sql, type Kysely } from 'kysely';
import { withDatabaseErrors } from '../database/translate-db-error.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import type { CollectionOverview, FieldOverview, SchemaOverview } from '../schema/overview.ts';
import type { SchemaCache } from '../schema/schema-cache.ts';
import { field as defineField } from '../schema/system/define.ts';
import type { FieldType } from '../schema/types.ts';
import { requireSchemaWrite, schemaVisibility, type SchemaVisibility } from './schema/access.ts';
import { alterColumn, changesColumn } from './schema/column-alter.ts';
import { columnDefinitionSql } from './schema/column-sql.ts';
import { geometryStorageOf } from '../schema/postgis.ts';
import { fieldResponse } from './schema/field-response.ts';
import { fieldsJson } from './schema/fields-json.ts';
import { fieldUpdateSchema, newFieldSchema, prepareNewField, withTypeSpecials, type ColumnInput, type FieldMetaInput } from './schema/field-payload.ts';
import { assertFieldName } from './schema/identifiers.ts';
import { findCollection, findField, findUserCollection } from './schema/lookup.ts';
import { ensureCollectionRow, insertFieldMeta, upsertFieldMeta } from './schema/metadata-writes.ts';
import { dropRelation } from './schema/relation-cleanup.ts';
import { setIndexed } from './schema/set-indexed.ts';
import { listPerSchema } from './schema/schema-lists.ts';
import { currentSchema, inSchemaTransaction, runSchemaChange, withRelated } from './schema/schema-change.ts';
import { validatePayload } from './validate-payload.ts';
import type { ServiceContext } from './service-context.ts';

/** A field in the Directus shape. */
export type FieldResponse = Record<string, unknown>;

/** Throws 400 unless `group` names another field of the collection. */
function checkGroup(collection: CollectionOverview, field: string, group: string | null | undefined): void {
  if (group && (group === field || !Object.hasOwn(collection.fields, group))) {
    throw new InvalidPayloadError(`meta.group must name another field of "${collection.collection}"; "${group}" is none.`, { field: 'meta.group' });
  }
}

/** True when `field` is the reverse alias (`meta.one_field`) of a relation pointing at its collection. */
function isRelationAlias(schema: SchemaOverview, collection: string, field: FieldOverview | undefined): boolean {
  return field !== undefined && field.alias && schema.relations.some((relation) => relation.relatedCollection === collection && relation.meta.oneField === field.field);
}

/** Fields of every collection; fields of user collections change their column and metadata together. */
export class FieldsService {
  readonly #context: ServiceContext;
  readonly #cache: SchemaCache;

  constructor(context: ServiceContext, cache: SchemaCache) {
    this.#context = context;
    this.#cache = cache;
  }

  /** Every field of every collection (built once per schema overview and visibility, then shared). */
  async readAll(): Promise<readonly FieldResponse[]> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_fields');
    return listPerSchema(schema, visible.key, 'fields', () => Object.values(schema.collections).flatMap((collection) => this.#responses(schema, collection, visible)));
  }

  /** readAll() as the JSON bytes of `{ data }`, kept per overview and visibility, built per collection. */
  async readAllJson(): Promise<{ body: Buffer; kept: boolean }> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_fields');
    return fieldsJson(schema, visible, (collection) => this.#responses(schema, collection, visible));
  }

  /** The fields of one collection; 403 when it does not exist. */
  async readAllInCollection(collection: string): Promise<readonly FieldResponse[]> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_fields');
    if (!visible.collection(collection)) throw new ForbiddenError();
    const found = findCollection(schema, collection);
    return listPerSchema(schema, visible.key, `fields:${collection}`, () => this.#responses(schema, found, visible));
  }

  /** One field; 403 when it or its collection does not exist. */
  async readOne(collection: string, field: string): Promise<FieldResponse> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_fields');
    if (!visible.field(collection, field)) throw new ForbiddenError();
    const found = findCollection(schema, collection);
    return fieldResponse(schema, found, findField(found, field));
  }

  /** Adds a field: ALTER TABLE ADD COLUMN (none for aliases) and its tessera_fields row, in one transaction. */
  async createOne(collection: string, payload: unknown): Promise<FieldResponse> {
    requireSchemaWrite(this.#context.accountability);
    const schema = await currentSchema(this.#context, this.#cache);
    const target = findUserCollection(schema, collection);
    const input = validatePayload(newFieldSchema, payload);
    assertFieldName(input.field);
    if (input.type === 'alias' && isRelationAlias(schema, collection, target.fields[input.field])) return this.#updateRelationAlias(target, input.field, (input.meta ?? {}) as FieldMetaInput);
    if (Object.hasOwn(target.fields, input.field)) throw new InvalidPayloadError(`Field "${input.field}" already exists in "${collection}".`, { field: 'field' });
    const field = prepareNewField(input, 'field');
    if (field.column && !target.table) throw new InvalidPayloadError(`Folder collection "${collection}" has no table: only alias fields can be added.`, { field: 'type' });
    if (field.column?.is_primary_key) throw new InvalidPayloadError(`"${collection}" already has its primary key "${target.primary}".`, { field: 'schema.is_primary_key' });
    checkGroup(target, field.field, field.meta.group);
    const definition = field.column ? columnDefinitionSql(field, await geometryStorageOf(this.#context.db)) : null;
    await runSchemaChange(this.#context, this.#cache, [collection], async (trx) => {
      if (definition) {
        await withDatabaseErrors(() => sql`alter table ${sql.id(collection)} add column ${definition}`.execute(trx), { collection, field: field.field });
      }
      await ensureCollectionRow(trx, collection);
      await insertFieldMeta(trx, collection, field.field, field.meta);
    });
    if (field.column?.is_indexed && !field.column.is_primary_key) await setIndexed(this.#context, this.#cache, collection, field.field, true);
    return this.readOne(collection, field.field);
  }

  /**
   * Creating the alias a relation's `meta.one_field` already made (Directus migrations often do so after
   * POST /relations) updates its metadata; its special stays the one the relation gives it.
   */
  async #updateRelationAlias(target: CollectionOverview, fieldName: string, meta: FieldMetaInput): Promise<FieldResponse> {
    const { special: _special, ...metaPatch } = meta;
    checkGroup(target, fieldName, metaPatch.group);
    if (Object.keys(metaPatch).length > 0) {
      const current = findField(target, fieldName);
      const defaults = defineField(fieldName, 'alias', { special: current.special.length > 0 ? current.special : null }).meta;
      await runSchemaChange(this.#context, this.#cache, [target.collection], (trx) => upsertFieldMeta(trx, target.collection, fieldName, metaPatch, defaults));
    }
    return this.readOne(target.collection, fieldName);
  }

  /**
   * Changes a field's metadata and column: type (ALTER COLUMN TYPE … USING), default, nullability,
   * uniqueness, length. The primary key's column can't change; data that violates a new rule gives 400.
   */
  async updateOne(collection: string, fieldName: string, payload: unknown): Promise<FieldResponse> {
    requireSchemaWrite(this.#context.accountability);
    const schema = await currentSchema(this.#context, this.#cache);
    const target = findUserCollection(schema, collection);
    const current = findField(target, fieldName);
    const input = validatePayload(fieldUpdateSchema, payload);
    const type = (input.type ?? current.type) as FieldType;
    if ((type === 'alias') !== current.alias) {
      throw new InvalidPayloadError(`Field "${fieldName}" can't change between alias and column types.`, { field: 'type' });
    }
    const column = (current.alias ? null : input.schema) as ColumnInput | null | undefined;
    const metaPatch = { ...(input.meta ?? {}) } as FieldMetaInput;
    checkGroup(target, fieldName, metaPatch.group);
    if (type !== current.type || metaPatch.special !== undefined) {
      metaPatch.special = withTypeSpecials(metaPatch.special !== undefined ? metaPatch.special : current.special, type, current.type);
    }
    const alter = !current.alias && changesColumn(current, type, column);
    const defaults = defineField(fieldName, type, { special: current.special.length > 0 ? current.special : null }).meta;
    await runSchemaChange(this.#context, this.#cache, withRelated(schema, [collection]), async (trx) => {
      if (alter) await alterColumn(trx, collection, current, type, column ?? {});
      if (Object.keys(metaPatch).length > 0 || !current.meta) await upsertFieldMeta(trx, collection, fieldName, metaPatch, defaults);
    });
    const indexed = column?.is_indexed;
    if (indexed !== undefined && indexed !== current.indexed && !current.primaryKey) await setIndexed(this.#context, this.#cache, collection, fieldName, indexed);
    return this.readOne(collection, fieldName);
  }

  /**
   * PATCH /fields/:collection: `[{ field, type?, meta?, schema? }, …]` in one transaction; the first failure
   * undoes them all.
   */
  async updateMany(collection: string, payload: unknown): Promise<FieldResponse[]> {
    requireSchemaWrite(this.#context.accountability);
    if (!Array.isArray(payload)) throw new InvalidPayloadError('The body must be an array of fields: [{ field, meta, schema }].', { field: 'body' });
    const names = payload.map((item, index) => {
      const name = typeof item === 'object' && item !== null ? (item as { field?: unknown }).field : undefined;
      if (typeof name !== 'string') throw new InvalidPayloadError(`[${index}].field must name a field of "${collection}".`, { field: `[${index}].field` });
      return name;
    });
    await withDatabaseErrors(() =>
      inSchemaTransaction(this.#context.db, this.#cache, async (trx) => {
        const inner = new FieldsService({ ...this.#context, db: trx }, this.#cache);
        for (const [index, item] of payload.entries()) await inner.updateOne(collection, names[index]!, item);
      }),
    );
    return Promise.all(names.map((name) => this.readOne(collection, name)));
  }

  /** Deletes a field: its column, its metadata and the relations that use it, in one transaction. */
  async deleteOne(collection: string, fieldName: string): Promise<void> {
    requireSchemaWrite(this.#context.accountability);
    const schema = await currentSchema(this.#context, this.#cache);
    const target = findUserCollection(schema, collection);
    const field = findField(target, fieldName);
    if (field.primaryKey) throw new InvalidPayloadError(`The primary key "${fieldName}" can't be deleted.`, { field: fieldName });
    await runSchemaChange(this.#context, this.#cache, withRelated(schema, [collection]), async (trx) => {
      await this.#detachRelations(trx, schema, target, field);
      if (!field.alias) await sql`alter table ${sql.id(collection)} drop column ${sql.id(fieldName)}`.execute(trx);
      await trx.deleteFrom('tessera_fields').where('collection', '=', collection).where('field', '=', fieldName).execute();
    });
  }

  /** Removes what refers to a field about to disappear: its relations, o2m links, sort and archive settings. */
  async #detachRelations(trx: Kysely<any>, schema: SchemaOverview, collection: CollectionOverview, field: FieldOverview): Promise<void> {
    const name = collection.collection;
    for (const relation of schema.relations) {
      const own = relation.collection === name && (relation.field === field.field || relation.meta.oneCollectionField === field.field);
      if (own) await dropRelation(trx, schema, relation, true);
      else if (relation.relatedCollection === name && relation.meta.oneField === field.field && relation.meta.id !== null) {
        await trx.updateTable('tessera_relations').set({ one_field: null }).where('id', '=', relation.meta.id).execute();
      }
    }
    for (const column of ['sort_field', 'junction_field'] as const) {
      await trx.updateTable('tessera_relations').set({ [column]: null }).where('many_collection', '=', name).where(column, '=', field.field).execute();
    }
    for (const column of ['sort_field', 'archive_field'] as const) {
      await trx.updateTable('tessera_collections').set({ [column]: null }).where('collection', '=', name).where(column, '=', field.field).execute();
    }
  }

  #responses(schema: SchemaOverview, collection: CollectionOverview, visible: SchemaVisibility): FieldResponse[] {
    if (!visible.collection(collection.collection)) return [];
    return Object.values(collection.fields)
      .filter((field) => visible.field(collection.collection, field.field))
      .map((field) => fieldResponse(schema, collection, field));
  }
}
