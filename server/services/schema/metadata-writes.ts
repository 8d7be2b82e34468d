import type { Kysely } from 'kysely';
import type { FieldMeta } from '../../schema/types.ts';
import { fieldMetaRow, type FieldMetaInput } from './field-payload.ts';

/** Makes sure `collection` has a tessera_collections row (field metadata references it). */
export async function ensureCollectionRow(trx: Kysely<any>, collection: string): Promise<void> {
  await trx.insertInto('tessera_collections').values({ collection }).onConflict((conflict) => conflict.column('collection').doNothing()).execute();
}

/** Inserts the tessera_fields row of a new field. */
export async function insertFieldMeta(trx: Kysely<any>, collection: string, field: string, meta: FieldMeta): Promise<void> {
  await trx.insertInto('tessera_fields').values({ ...fieldMetaRow(meta), collection, field }).execute();
}

/** Updates the given metadata of a field, creating its row from `defaults` when it has none. */
export async function upsertFieldMeta(trx: Kysely<any>, collection: string, field: string, patch: FieldMetaInput, defaults: FieldMeta): Promise<void> {
  await ensureCollectionRow(trx, collection);
  const changes = fieldMetaRow(patch);
  await trx
    .insertInto('tessera_fields')
    .values({ ...fieldMetaRow({ ...defaults, ...patch }), collection, field })
    .onConflict((conflict) => {
      const target = conflict.columns(['collection', 'field']);
      return Object.keys(changes).length > 0 ? target.doUpdateSet(changes) : target.doNothing();
    })
    .execute();
}
