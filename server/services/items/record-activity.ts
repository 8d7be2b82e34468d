import { sql, type Kysely } from 'kysely';
import type { Accountability } from '../../auth/accountability.ts';
import type { CollectionOverview } from '../../schema/overview.ts';
import { CONCEALED_PLACEHOLDER } from './prepare-payload.ts';

/** What happened to an item; `login` is recorded by the sign-in layer. */
export type ActivityAction = 'create' | 'update' | 'delete';

/** One written item: its key and what the caller sent (the delta). */
export interface WrittenItem {
  key: string | number;
  delta: Record<string, unknown> | null;
}

function withoutSecrets(collection: CollectionOverview, data: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!data) return data;
  const clean = { ...data };
  for (const field of Object.values(collection.fields)) {
    if (field.concealed && clean[field.field] != null) clean[field.field] = CONCEALED_PLACEHOLDER;
  }
  return clean;
}

/**
 * Records activity (and, for `accountability: all`, revisions holding the item's full data and the
 * delta) for a batch of written items, inside the caller's transaction: two statements per batch.
 * Returns the revision ids by item key, for nested writes to point at as `parent`.
 */
export async function recordActivity(
  trx: Kysely<any>,
  collection: CollectionOverview,
  action: ActivityAction,
  items: WrittenItem[],
  accountability: Accountability,
  parentRevision: number | null = null,
): Promise<Map<string, number>> {
  const revisions = new Map<string, number>();
  if (!collection.accountability || items.length === 0) return revisions;
  const activities = await trx
    .insertInto('tessera_activity')
    .values(
      items.map((item) => ({
        action,
        collection: collection.collection,
        item: String(item.key),
        user: accountability.user,
        ip: accountability.ip,
        user_agent: accountability.userAgent,
        origin: accountability.origin,
      })),
    )
    .returning('id')
    .execute();
  if (collection.accountability !== 'all' || action === 'delete') return revisions;

  const keys = items.map((item) => item.key);
  const rows = await trx
    .selectFrom(`${collection.collection} as t`)
    .select([sql.ref(`t.${collection.primary}`).as('key'), sql`to_jsonb(t)`.as('data')])
    .where(sql.ref(`t.${collection.primary}`), 'in', keys)
    .execute();
  const dataByKey = new Map(rows.map((row) => [String(row.key), row.data as Record<string, unknown>]));
  const inserted = await trx
    .insertInto('tessera_revisions')
    .values(
      items.map((item, index) => ({
        activity: activities[index]!.id,
        collection: collection.collection,
        item: String(item.key),
        data: JSON.stringify(withoutSecrets(collection, dataByKey.get(String(item.key)) ?? null)),
        delta: JSON.stringify(withoutSecrets(collection, item.delta)),
        parent: parentRevision,
      })),
    )
    .returning(['id', 'item'])
    .execute();
  for (const row of inserted) revisions.set(row.item as string, row.id as number);
  return revisions;
}
