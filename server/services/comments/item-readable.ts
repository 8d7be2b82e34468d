import { sql, type Kysely } from 'kysely';
import type { Accountability } from '../../auth/accountability.ts';
import type { PermissionCache } from '../../permissions/permission-cache.ts';
import { resolveAccess } from '../../permissions/access.ts';
import { compilePermittedKeys } from '../../query/compile-permitted.ts';
import type { SchemaOverview } from '../../schema/overview.ts';

/**
 * Whether `accountability` may read item `item` of `collection` through the permission engine (admins:
 * whether it exists). False for an unknown collection or item too, so callers never tell them apart.
 */
export async function canReadItem(db: Kysely<any>, permissions: PermissionCache, schema: SchemaOverview, accountability: Accountability, collection: string, item: string): Promise<boolean> {
  const overview = Object.hasOwn(schema.collections, collection) ? schema.collections[collection] : undefined;
  if (!overview?.table || !overview.primary) return false;
  const access = await resolveAccess({ accountability, db, permissions }, schema);
  if (access && !access.permission(collection, 'read')) return false;
  const rule = access?.itemFilter(collection, 'read') ?? null;
  let query = db.selectFrom(collection).select(sql.ref(overview.primary).as('key')).where(sql`${sql.ref(overview.primary)}::text`, '=', item);
  if (rule) query = query.where(sql<boolean>`${sql.ref(overview.primary)} in (${compilePermittedKeys(schema, collection, rule, accountability)})`);
  return (await query.executeTakeFirst()) !== undefined;
}
