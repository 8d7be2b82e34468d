import { sql } from 'kysely';
import * as yup from 'yup';
import { withDatabaseErrors } from '../database/translate-db-error.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import type { SchemaCache } from '../schema/schema-cache.ts';
import { requireSchemaWrite, schemaVisibility } from './schema/access.ts';
import { collectionMetaRow, collectionMetaSchema, collectionResponse, type CollectionMetaInput } from './schema/collection-meta.ts';
import { columnDefinitionSql } from './schema/column-sql.ts';
import { geometryStorageOf } from '../schema/postgis.ts';
import { lenientObject } from './schema/yup-helpers.ts';
import { newFieldSchema, prepareNewField, type NewField } from './schema/field-payload.ts';
import { assertCollectionName, assertFieldName } from './schema/identifiers.ts';
import { findCollection, findUserCollection } from './schema/lookup.ts';
import { insertFieldMeta } from './schema/metadata-writes.ts';
import { dropRelation, removeFromAllowedCollections } from './schema/relation-cleanup.ts';
import { currentSchema, inSchemaTransaction, runSchemaChange, withRelated } from './schema/schema-change.ts';
import { validatePayload } from './validate-payload.ts';
import type { ServiceContext } from './service-context.ts';
import { setIndexed } from './schema/set-indexed.ts';
import { listPerSchema } from './schema/schema-lists.ts';

/** A collection in the Directus shape. */
export type CollectionResponse = Record<string, unknown>;

const newCollectionSchema = yup
  .object({
    collection: yup.string().required(),
    meta: collectionMetaSchema,
    schema: lenientObject({}).nullable().default(undefined),
    fields: yup.array(newFieldSchema).default([]),
  })
  .exact();

const collectionUpdateSchema = yup
  .object({ collection: yup.mixed().strip(), schema: yup.mixed().strip(), meta: collectionMetaSchema.nonNullable() })
  .exact();

/** The `id` primary key a collection gets when none of its fields is marked `is_primary_key`. */
function defaultPrimaryKey(): NewField {
  return prepareNewField(
    { field: 'id', type: 'integer', meta: { hidden: true, readonly: true, interface: 'input' }, schema: { is_primary_key: true, has_auto_increment: true } },
    'fields[id]',
  );
}

/** Checks that the fields and collections a collection's settings name exist. */
function checkMetaReferences(schema: SchemaOverview, collection: string, meta: CollectionMetaInput, fields: ReadonlySet<string>): void {
  for (const key of ['archive_field', 'sort_field'] as const) {
    const value = meta[key];
    if (value && !fields.has(value)) throw new InvalidPayloadError(`meta.${key} must name a field of "${collection}"; "${value}" is none.`, { field: `meta.${key}` });
  }
  const group = meta.group;
  if (group && (group === collection || !Object.hasOwn(schema.collections, group) || schema.collections[group]!.system)) {
    throw new InvalidPayloadError(`meta.group must name another user collection; "${group}" is none.`, { field: 'meta.group' });
  }
}

/** Collections: system ones (read-only) and user ones, whose tables and metadata change together. */
export class CollectionsService {
  readonly #context: ServiceContext;
  readonly #cache: SchemaCache;

  constructor(context: ServiceContext, cache: SchemaCache) {
    this.#context = context;
    this.#cache = cache;
  }

  /** Every collection: system ones first, then user ones by name (built once per schema overview and visibility, then shared). */
  async readAll(): Promise<readonly CollectionResponse[]> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_collections');
    return listPerSchema(schema, visible.key, 'collections', () => {
      const all = Object.values(schema.collections).filter((collection) => visible.collection(collection.collection));
      const user = all.filter((collection) => !collection.system).sort((a, b) => a.collection.localeCompare(b.collection));
      return [...all.filter((collection) => collection.system), ...user].map(collectionResponse);
    });
  }

  /** One collection; 403 when it does not exist. */
  async readOne(name: string): Promise<CollectionResponse> {
    const schema = await currentSchema(this.#context, this.#cache);
    const visible = await schemaVisibility(this.#context, schema, 'tessera_collections');
    if (!visible.collection(name)) throw new ForbiddenError();
    return collectionResponse(findCollection(schema, name));
  }

  /**
   * Creates a collection: its table with a primary key (`id` integer identity unless a field is marked
   * `is_primary_key`) and every given field, its tessera_collections row and tessera_fields rows, in
   * one transaction. `schema: null` makes a folder: metadata only.
   */
  async createOne(payload: unknown): Promise<CollectionResponse> {
    requireSchemaWrite(this.#context.accountability);
    const input = validatePayload(newCollectionSchema, payload);
    const name = input.collection;
    assertCollectionName(name);
    const schema = await currentSchema(this.#context, this.#cache);
    if (Object.hasOwn(schema.collections, name)) throw new InvalidPayloadError(`Collection "${name}" already exists.`, { field: 'collection' });
    const fields = this.#prepareFields(input.fields, input.schema === null);
    const meta = (input.meta ?? {}) as CollectionMetaInput;
    checkMetaReferences(schema, name, meta, new Set(fields.map((field) => field.field)));
    const primary = fields.find((field) => field.column?.is_primary_key);
    // Built before the transaction, so that a bad type or default fails before any DDL runs.
    const storage = await geometryStorageOf(this.#context.db);
    const columns = fields.filter((field) => field.column && field !== primary).map((field) => ({ field: field.field, definition: columnDefinitionSql(field, storage) }));
    const primaryDefinition = primary ? columnDefinitionSql(primary, storage) : null;

    await runSchemaChange(this.#context, this.#cache, [name], async (trx) => {
      if (primaryDefinition) {
        await withDatabaseErrors(() => sql`create table ${sql.id(name)} (${primaryDefinition})`.execute(trx), { collection: name });
        for (const column of columns) {
          await withDatabaseErrors(() => sql`alter table ${sql.id(name)} add column ${column.definition}`.execute(trx), { collection: name, field: column.field });
        }
      }
      await trx.insertInto('tessera_collections').values({ ...collectionMetaRow(meta), collection: name }).execute();
      for (const [index, field] of fields.entries()) {
        await insertFieldMeta(trx, name, field.field, { ...field.meta, group: null, sort: field.meta.sort ?? index + 1 });
      }
      for (const field of fields.filter((item) => item.meta.group)) {
        await trx.updateTable('tessera_fields').set({ group: field.meta.group }).where('collection', '=', name).where('field', '=', field.field).execute();
      }
    });
    for (const field of fields.filter((item) => item.column?.is_indexed && !item.column.is_primary_key)) {
      await setIndexed(this.#context, this.#cache, name, field.field, true);
    }
    return this.readOne(name);
  }

  /** POST /collections with an array, as Directus takes it: every collection in one transaction; the first failure undoes them all. */
  async createMany(payload: unknown[]): Promise<CollectionResponse[]> {
    requireSchemaWrite(this.#context.accountability);
    const names: string[] = [];
    await withDatabaseErrors(() =>
      inSchemaTransaction(this.#context.db, this.#cache, async (trx) => {
        const inner = new CollectionsService({ ...this.#context, db: trx }, this.#cache);
        for (const item of payload) names.push((await inner.createOne(item)).collection as string);
      }),
    );
    return Promise.all(names.map((name) => this.readOne(name)));
  }

  /** Updates a user collection's settings (only `meta`; the table is changed through its fields). */
  async updateOne(name: string, payload: unknown): Promise<CollectionResponse> {
    requireSchemaWrite(this.#context.accountability);
    const schema = await currentSchema(this.#context, this.#cache);
    const collection = findUserCollection(schema, name);
    const input = validatePayload(collectionUpdateSchema, payload);
    const meta = (input.meta ?? {}) as CollectionMetaInput;
    checkMetaReferences(schema, name, meta, new Set(Object.keys(collection.fields)));
    const row = collectionMetaRow(meta);
    if (Object.keys(row).length > 0) {
      await runSchemaChange(this.#context, this.#cache, [name], (trx) =>
        trx
          .insertInto('tessera_collections')
          .values({ ...row, collection: name })
          .onConflict((conflict) => conflict.column('collection').doUpdateSet(row))
          .execute(),
      );
    }
    return this.readOne(name);
  }

  /** PATCH /collections: `[{ collection, meta }, …]` in one transaction; the first failure undoes them all. */
  async updateMany(payload: unknown): Promise<CollectionResponse[]> {
    requireSchemaWrite(this.#context.accountability);
    if (!Array.isArray(payload)) throw new InvalidPayloadError('The body must be an array of collections: [{ collection, meta }].', { field: 'body' });
    const names = payload.map((item, index) => {
      const name = typeof item === 'object' && item !== null ? (item as { collection?: unknown }).collection : undefined;
      if (typeof name !== 'string') throw new InvalidPayloadError(`[${index}].collection must name a collection.`, { field: `[${index}].collection` });
      return name;
    });
    await withDatabaseErrors(() =>
      inSchemaTransaction(this.#context.db, this.#cache, async (trx) => {
        const inner = new CollectionsService({ ...this.#context, db: trx }, this.#cache);
        for (const [index, item] of payload.entries()) await inner.updateOne(names[index]!, item);
      }),
    );
    return Promise.all(names.map((name) => this.readOne(name)));
  }

  /**
   * Deletes a user collection in one transaction: its table, its fields' metadata, its relations and
   * those pointing at it (their foreign keys and o2m aliases), its place in m2a relations, and its
   * permissions and presets.
   */
  async deleteOne(name: string): Promise<void> {
    requireSchemaWrite(this.#context.accountability);
    const schema = await currentSchema(this.#context, this.#cache);
    const collection = findUserCollection(schema, name);
    await runSchemaChange(this.#context, this.#cache, withRelated(schema, [name]), async (trx) => {
      for (const relation of schema.relations) {
        if (relation.collection === name) await dropRelation(trx, schema, relation, false);
        else if (relation.relatedCollection === name) await dropRelation(trx, schema, relation, true);
      }
      await removeFromAllowedCollections(trx, schema, name);
      for (const table of ['tessera_fields', 'tessera_permissions', 'tessera_presets', 'tessera_collections']) {
        await trx.deleteFrom(table).where('collection', '=', name).execute();
      }
      if (collection.table) await sql`drop table ${sql.id(name)}`.execute(trx);
    });
  }

  /** Validates names and completes the fields of a new collection, adding the default primary key. */
  #prepareFields(inputs: yup.InferType<typeof newFieldSchema>[], folder: boolean): NewField[] {
    if (folder) {
      if (inputs.length > 0) throw new InvalidPayloadError('A folder collection (schema: null) has no fields.', { field: 'fields' });
      return [];
    }
    const seen = new Set<string>();
    const fields = inputs.map((input, index) => {
      assertFieldName(input.field, `fields[${index}].field`);
      if (seen.has(input.field)) throw new InvalidPayloadError(`Field "${input.field}" is listed twice.`, { field: `fields[${index}].field` });
      seen.add(input.field);
      return prepareNewField(input, `fields[${index}]`);
    });
    for (const [index, field] of fields.entries()) {
      if (field.meta.group && !seen.has(field.meta.group)) {
        throw new InvalidPayloadError(`fields[${index}].meta.group must name another field of the collection.`, { field: `fields[${index}].meta.group` });
      }
    }
    const primaryKeys = fields.filter((field) => field.column?.is_primary_key);
    if (primaryKeys.length > 1) throw new InvalidPayloadError('Only one field can be the primary key.', { field: 'fields' });
    if (primaryKeys.length === 1) return fields;
    if (seen.has('id')) {
      throw new InvalidPayloadError('Field "id" is the default primary key: mark it (or another field) with schema.is_primary_key.', { field: 'fields' });
    }
    return [defaultPrimaryKey(), ...fields];
  }
}
