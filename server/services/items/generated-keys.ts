import { sql, type Kysely } from 'kysely';
import { fieldTypeTraits } from '../../schema/field-type-table.ts';
import type { CollectionOverview } from '../../schema/overview.ts';

type Payload = Record<string, unknown>;

/** True when a create gives an integer key the database would otherwise generate (identity or serial). */
export function setsGeneratedKey(overview: CollectionOverview, payload: Payload): boolean {
  const key = overview.fields[overview.primary];
  const value = payload[overview.primary];
  return !!key && key.generated && fieldTypeTraits(key.type).primaryKey === 'identity' && value !== undefined && value !== null;
}

/**
 * Moves the key's sequence past the largest key, so the next generated key does not collide with one a
 * client chose (Directus does the same after such a create). Never moves it back. Sequences are not
 * transactional: a rolled-back create leaves a gap, as any failed insert does.
 */
export async function advanceKeySequence(db: Kysely<any>, overview: CollectionOverview): Promise<void> {
  const table = overview.collection;
  const column = overview.primary;
  await sql`
    select setval(s.name, greatest(m.max, coalesce(pg_sequence_last_value(s.name::regclass), 1)))
    from (select pg_get_serial_sequence(quote_ident(${table}), ${column}) as name) s,
         (select max(${sql.ref(column)})::bigint as max from ${sql.table(table)}) m
    where s.name is not null and m.max is not null`.execute(db);
}
