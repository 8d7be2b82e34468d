import { sql } from 'kysely';
import { runTransaction } from '../../database/transaction-retry.ts';
import { ForbiddenError, InvalidPayloadError } from '../../errors.ts';
import type { ItemKey, ItemsContext } from './items-service.ts';
import { ItemsService } from './items-service.ts';

/**
 * Moves `item` to the position `to` holds in the collection's manual sort field, shifting the items in
 * between by one, in one transaction. Items without a sort value are numbered first (by key).
 */
export async function moveItem(context: ItemsContext, collection: string, item: ItemKey, to: ItemKey): Promise<void> {
  const overview = context.schema.collections[collection];
  if (!overview?.sortField) throw new InvalidPayloadError(`Collection "${collection}" has no sort field.`, { field: 'collection' });
  const sortField = overview.sortField;
  const primary = overview.primary;
  // Checks access and key types the way every other write does.
  const service = new ItemsService(collection, context);
  const [itemKey, toKey] = await service.normalizeAndCheck([item, to], [sortField], { everyItem: true });
  await runTransaction(context.db, async (trx) => {
    // A move shifts a range of rows: two at once would deadlock on them or both take one position.
    await sql`select pg_advisory_xact_lock(hashtext(${`tessera:sort:${collection}`}))`.execute(trx);
    await sql`update ${sql.table(collection)} as t set ${sql.ref(sortField)} = numbered.position
      from (select ${sql.ref(primary)} as key, row_number() over (order by ${sql.ref(sortField)} nulls last, ${sql.ref(primary)}) as position from ${sql.table(collection)}) as numbered
      where t.${sql.ref(primary)} = numbered.key and exists (select 1 from ${sql.table(collection)} where ${sql.ref(sortField)} is null)`.execute(trx);
    const rows = await trx.selectFrom(collection).select([sql.ref(primary).as('key'), sql.ref(sortField).as('sort')]).where(sql.ref(primary), 'in', [itemKey, toKey]).execute();
    const from = Number(rows.find((row) => String(row.key) === String(itemKey))?.sort);
    const target = Number(rows.find((row) => String(row.key) === String(toKey))?.sort);
    if (!Number.isFinite(from) || !Number.isFinite(target)) throw new ForbiddenError();
    if (from === target) return;
    const [low, high, shift] = from < target ? [from + 1, target, -1] : [target, from - 1, 1];
    await sql`update ${sql.table(collection)} set ${sql.ref(sortField)} = ${sql.ref(sortField)} + ${shift} where ${sql.ref(sortField)} between ${low} and ${high}`.execute(trx);
    await trx.updateTable(collection).set({ [sortField]: target }).where(sql.ref(primary), '=', itemKey).execute();
  });
}
