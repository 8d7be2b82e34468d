import { sql, type Kysely } from 'kysely';
import { withDatabaseErrors } from '../database/translate-db-error.ts';
import { InvalidPayloadError } from '../errors.ts';
import { setColumnIndexedInTransaction } from '../indexes/managed-indexes.ts';
import { geometryStorageOf, type GeometryStorage } from '../schema/postgis.ts';
import { getSystemCollection } from '../schema/system/index.ts';
import type { FieldMeta, FieldType } from '../schema/types.ts';
import type { CollectionOverview } from '../schema/overview.ts';
import { collectionMetaRow, type CollectionMetaInput } from '../services/schema/collection-meta.ts';
import { columnDefinitionSql } from '../services/schema/column-sql.ts';
import { prepareNewField } from '../services/schema/field-payload.ts';
import { assertCollectionName, assertFieldName } from '../services/schema/identifiers.ts';
import { ensureCollectionRow, insertFieldMeta } from '../services/schema/metadata-writes.ts';
import type { OnDeleteAction, RelationMeta } from '../services/schema/relation-payload.ts';
import { addForeignKey, relationRow } from '../services/schema/relation-writes.ts';
import type { SnapshotCollection, SnapshotDocument, SnapshotField, SnapshotRelation } from './types.ts';

/*
 * Creating what does not exist yet is the bulk of a first apply. The services re-read the schema overview
 * (information_schema, ~150-300 ms) before and after every call; a 50-collection project would spend a
 * minute there. Creates therefore run here, straight from the snapshot, through the same DDL and metadata
 * helpers the services use (column definitions, foreign keys with their index, metadata rows); changes
 * and drops, which need the current state, stay with the services.
 */

/** Column definition of a snapshot field, validated by the fields service's own rules. */
function columnDefinition(field: SnapshotField, path: string, storage: GeometryStorage) {
  assertFieldName(field.field, path);
  const prepared = prepareNewField({ field: field.field, type: field.type as FieldType, meta: field.meta as never, schema: field.schema as never }, path);
  return prepared.column ? columnDefinitionSql(prepared, storage) : null;
}

/** Creates a collection: its table with every column in one statement (none for a folder), then its metadata rows. */
export async function createCollection(trx: Kysely<any>, collection: SnapshotCollection, fields: SnapshotField[]): Promise<void> {
  const name = collection.collection;
  assertCollectionName(name);
  const storage = await geometryStorageOf(trx);
  const definitions = fields.map((field) => columnDefinition(field, `${name}.${field.field}`, storage)).filter((definition) => definition !== null);
  if (collection.schema) {
    if (!fields.some((field) => field.schema?.is_primary_key)) {
      throw new InvalidPayloadError(`Collection "${name}" needs a field with schema.is_primary_key: true.`, { field: name });
    }
    await withDatabaseErrors(() => sql`create table ${sql.id(name)} (${sql.join(definitions, sql`, `)})`.execute(trx), { collection: name });
  } else if (definitions.length > 0) {
    throw new InvalidPayloadError(`Folder collection "${name}" (schema: null) can only have alias fields.`, { field: name });
  }
  await indexFields(trx, name, fields);
  // The group may name a collection created later: the metadata pass sets it.
  await trx.insertInto('tessera_collections').values({ ...collectionMetaRow({ ...(collection.meta as CollectionMetaInput), group: null }), collection: name }).execute();
  for (const field of fields) await insertFieldMeta(trx, name, field.field, { ...(field.meta as unknown as FieldMeta), group: null });
}

/** Adds a field to an existing collection: its column (none for an alias) and its metadata row. */
export async function createField(trx: Kysely<any>, field: SnapshotField): Promise<void> {
  const definition = columnDefinition(field, `${field.collection}.${field.field}`, await geometryStorageOf(trx));
  if (definition) {
    await withDatabaseErrors(() => sql`alter table ${sql.id(field.collection)} add column ${definition}`.execute(trx), { collection: field.collection, field: field.field });
  }
  await indexFields(trx, field.collection, [field]);
  await ensureCollectionRow(trx, field.collection);
  await insertFieldMeta(trx, field.collection, field.field, { ...(field.meta as unknown as FieldMeta), group: null });
}

/** Builds the index of every new field the snapshot marks `is_indexed`, inside the apply's transaction. */
async function indexFields(trx: Kysely<any>, collection: string, fields: SnapshotField[]): Promise<void> {
  for (const field of fields) {
    if (field.schema?.is_indexed && !field.schema.is_primary_key) await setColumnIndexedInTransaction(trx, collection, field.field, true);
  }
}

/** The primary key of a collection of the snapshot or a system collection. */
function primaryKeyOf(document: SnapshotDocument, collection: string): string {
  const system = getSystemCollection(collection);
  if (system) return system.primary;
  const key = document.fields.find((field) => field.collection === collection && field.schema?.is_primary_key);
  if (!key) throw new InvalidPayloadError(`related_collection "${collection}" has no primary key in the snapshot.`, { field: 'related_collection' });
  return key.field;
}

/** Creates a relation: its foreign key and index (when `schema` is set) and its tessera_relations row. */
export async function createRelation(trx: Kysely<any>, relation: SnapshotRelation, desired: SnapshotDocument): Promise<void> {
  const related = relation.related_collection;
  if (related && relation.schema) {
    const target = { collection: related, primary: primaryKeyOf(desired, related) } as CollectionOverview;
    await addForeignKey(trx, relation.collection, relation.field, target, relation.schema.on_delete as OnDeleteAction);
  }
  await trx
    .insertInto('tessera_relations')
    .values({ ...relationRow(relation.meta as unknown as RelationMeta), many_collection: relation.collection, many_field: relation.field, one_collection: related })
    .execute();
}
