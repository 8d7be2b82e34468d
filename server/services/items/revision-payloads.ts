import { sql, type Kysely } from 'kysely';
import { ITEM_COPY_FIELDS, type Access } from '../../permissions/access.ts';
import type { Query } from '../../query/types.ts';
import type { SchemaOverview } from '../../schema/overview.ts';
import { readableChanges } from './readable-changes.ts';
import { readableKeys } from './readable-keys.ts';

type Item = Record<string, unknown>;

/** A read of item copies: the query to run without them, and how to put them back filtered. */
export interface ItemCopyPlan {
  query: Query;
  attach(items: Item[]): Promise<Item[]>;
}

/**
 * For a restricted caller's root read of a collection with item copies (revisions), the query without
 * them and the step that adds each copy holding only the fields the caller may read of that item, or
 * null when the caller may not read the item. Null when nothing needs doing.
 */
export function planItemCopies(db: Kysely<any>, schema: SchemaOverview, access: Access | null, collection: string, query: Query): ItemCopyPlan | null {
  const copies = ITEM_COPY_FIELDS[collection];
  const overview = schema.collections[collection];
  if (!access || !copies || !overview || query.aggregate || query.groupBy) return null;
  const own = access.permission(collection, 'read');
  if (!own) return null;
  const requested = query.fields ?? ['*'];
  const wanted = copies.filter((field) => (requested.includes('*') || requested.includes(field)) && (own.fields === '*' || own.fields.has(field)));
  const primary = overview.primary;
  if (wanted.length === 0 || !(own.fields === '*' || own.fields.has(primary))) return null;
  const fields = requested.filter((field) => !wanted.includes(field));
  const addedKey = !fields.includes(primary) && !fields.includes('*');
  if (addedKey) fields.push(primary);

  return {
    query: { ...query, fields },
    async attach(items) {
      const keys = items.map((item) => item[primary]).filter((key) => key !== null && key !== undefined);
      const rows = keys.length === 0 ? [] : await db.selectFrom(collection).select([sql.ref(primary).as('key'), 'collection', 'item', ...wanted]).where(sql.ref(primary), 'in', keys).execute();
      const readable = await readableItems(db, schema, access, rows.map((row) => ({ collection: row.collection as string, item: String(row.item) })));
      const byKey = new Map(rows.map((row) => [String(row.key), row]));
      return items.map((item) => {
        const row = byKey.get(String(item[primary]));
        const result: Item = { ...item };
        const visible = row !== undefined && readable.has(`${row.collection}\u0000${row.item}`);
        for (const field of wanted) result[field] = visible ? readableCopy(schema, access, row.collection as string, row[field]) : null;
        if (addedKey) delete result[primary];
        return result;
      });
    },
  };
}

/** A stored copy as `access` may read it: see readableChanges (nested related items are cut too). */
function readableCopy(schema: SchemaOverview, access: Access, collection: string, value: unknown): unknown {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed;
  return readableChanges(schema, access, collection, parsed as Item);
}

/** `collection\0item` of the items the caller may read now (its item rule applied). */
async function readableItems(db: Kysely<any>, schema: SchemaOverview, access: Access, refs: Array<{ collection: string; item: string }>): Promise<Set<string>> {
  const readable = new Set<string>();
  const byCollection = new Map<string, Set<string>>();
  for (const ref of refs) byCollection.set(ref.collection, (byCollection.get(ref.collection) ?? new Set()).add(ref.item));
  for (const [collection, items] of byCollection) {
    const overview = Object.hasOwn(schema.collections, collection) ? schema.collections[collection] : undefined;
    if (!overview?.table) continue;
    for (const key of await readableKeys(db, schema, overview, access, [...items])) readable.add(`${collection}\u0000${key}`);
  }
  return readable;
}
