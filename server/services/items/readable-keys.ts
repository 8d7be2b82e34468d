import { sql, type Kysely } from 'kysely';
import type { Access } from '../../permissions/access.ts';
import { compilePermittedKeys } from '../../query/compile-permitted.ts';
import type { CollectionOverview, SchemaOverview } from '../../schema/overview.ts';
import { normalizeKeys, uniqueKeys, type ItemKey } from './item-keys.ts';

/**
 * Of `keys`, those of items of `overview` the caller may read now, in their first order and without
 * repeats: its read permission on the collection and that permission's item rule (a share's reach
 * included) decide, not its field list, so a caller that may read the item but not its key field still
 * may. `access` null (administrators, the system): the items that exist. A key that cannot exist for the
 * key's type is left out like a missing item; nothing tells the two apart.
 */
export async function readableKeys(db: Kysely<any>, schema: SchemaOverview, overview: CollectionOverview, access: Access | null, keys: ItemKey[]): Promise<ItemKey[]> {
  if (access && !access.permission(overview.collection, 'read')) return [];
  const valid = uniqueKeys(keys.flatMap((key) => possibleKey(overview, key)));
  if (valid.length === 0) return [];
  const primary = sql.ref(overview.primary);
  // One array parameter, however many keys a caller sends (a list of parameters stops at 65,535).
  let query = db.selectFrom(overview.collection).select(primary.as('key')).where(sql<boolean>`${primary} = any(${valid})`);
  const rule = access?.itemFilter(overview.collection, 'read') ?? null;
  if (rule) query = query.where(sql<boolean>`${primary} in (${compilePermittedKeys(schema, overview.collection, rule, access!.accountability)})`);
  const found = new Set((await query.execute()).map((row) => comparable(overview, row.key as ItemKey)));
  return valid.filter((key) => found.has(comparable(overview, key)));
}

/** A key as text to compare with one PostgreSQL returns (which prints a uuid in lower case). */
function comparable(overview: CollectionOverview, key: ItemKey): string {
  return overview.fields[overview.primary]?.type === 'uuid' ? String(key).toLowerCase() : String(key);
}

/** The key as the key's type holds it, or nothing when it cannot exist (a word for an integer key). */
function possibleKey(overview: CollectionOverview, key: ItemKey): ItemKey[] {
  try {
    return normalizeKeys(overview, [key]);
  } catch {
    return [];
  }
}
