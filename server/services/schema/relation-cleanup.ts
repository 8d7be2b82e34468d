import { sql, type Kysely } from 'kysely';
import type { RelationOverview, SchemaOverview } from '../../schema/overview.ts';

/**
 * Removes a relation: its foreign key (unless the column or table is being dropped anyway), its
 * tessera_relations row, the o2m/m2m alias field it gave the related collection, and the junction link
 * of its m2m partner.
 */
export async function dropRelation(trx: Kysely<any>, schema: SchemaOverview, relation: RelationOverview, dropConstraint: boolean): Promise<void> {
  if (dropConstraint && relation.schema) {
    await sql`alter table ${sql.id(relation.collection)} drop constraint if exists ${sql.id(relation.schema.constraintName)}`.execute(trx);
  }
  if (relation.meta.id !== null) await trx.deleteFrom('tessera_relations').where('id', '=', relation.meta.id).execute();
  const { oneField } = relation.meta;
  if (oneField && relation.relatedCollection && schema.collections[relation.relatedCollection]?.fields[oneField]?.alias) {
    await trx.deleteFrom('tessera_fields').where('collection', '=', relation.relatedCollection).where('field', '=', oneField).execute();
  }
  await trx
    .updateTable('tessera_relations')
    .set({ junction_field: null })
    .where('many_collection', '=', relation.collection)
    .where('junction_field', '=', relation.field)
    .execute();
}

/** Takes `collection` out of the allowed collections of every m2a relation. */
export async function removeFromAllowedCollections(trx: Kysely<any>, schema: SchemaOverview, collection: string): Promise<void> {
  for (const relation of schema.relations) {
    const allowed = relation.meta.oneAllowedCollections;
    if (relation.meta.id === null || !allowed?.includes(collection)) continue;
    const remaining = allowed.filter((name) => name !== collection);
    await trx
      .updateTable('tessera_relations')
      .set({ one_allowed_collections: remaining.length > 0 ? remaining.join(',') : null })
      .where('id', '=', relation.meta.id)
      .execute();
  }
}
