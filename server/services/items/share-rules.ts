import { sql, type Kysely } from 'kysely';
import { ForbiddenError, InvalidPayloadError } from '../../errors.ts';
import type { Access } from '../../permissions/access.ts';
import { compilePermittedKeys } from '../../query/compile-permitted.ts';
import type { SchemaOverview } from '../../schema/overview.ts';

type Payload = Record<string, unknown>;

/** Blank means "none" for these: passwordless, no start, never expires, unlimited uses (SPEC.md §5). */
const BLANK_MEANS_NONE = ['password', 'date_start', 'date_end', 'max_uses'] as const;

/**
 * SPEC.md §5's rules for tessera_shares writes: blanks become null; the role must be a role without admin
 * access; and a restricted caller may share only items its `share` permission reaches, under its own role
 * (a share must never read more than its creator could).
 */
export async function applyShareRules(db: Kysely<any>, schema: SchemaOverview, access: Access | null, payload: Payload, mode: 'create' | 'update'): Promise<Payload> {
  const result: Payload = { ...payload };
  for (const field of BLANK_MEANS_NONE) if (result[field] === '') result[field] = null;
  if (access && mode === 'create' && result.role === undefined) result.role = access.accountability.role;

  if (result.role !== undefined && result.role !== null) {
    if (typeof result.role !== 'string') throw new InvalidPayloadError('"role" must be the id of a role.', { field: 'role' });
    const role = await db.selectFrom('tessera_roles').select(['admin_access']).where('id', '=', result.role).executeTakeFirst();
    if (!role) throw new InvalidPayloadError('"role" must be the id of an existing role.', { field: 'role' });
    if (role.admin_access === true) throw new InvalidPayloadError('"role" must be a role without admin access: a share never grants admin rights.', { field: 'role' });
    if (access && result.role !== access.accountability.role) throw new ForbiddenError('You can only share items under your own role.', { field: 'role' });
  }
  if (!access) return result;
  if (mode === 'update' && (result.collection !== undefined || result.item !== undefined)) {
    throw new ForbiddenError('A share cannot be moved to another item; create a new share instead.', { field: 'item' });
  }
  if (mode === 'create') await assertShareable(db, schema, access, result.collection, result.item);
  return result;
}

async function assertShareable(db: Kysely<any>, schema: SchemaOverview, access: Access, collection: unknown, item: unknown): Promise<void> {
  const overview = typeof collection === 'string' && Object.hasOwn(schema.collections, collection) ? schema.collections[collection] : undefined;
  const permission = typeof collection === 'string' ? access.permission(collection, 'share') : null;
  if (!overview?.table || !permission || (typeof item !== 'string' && typeof item !== 'number')) {
    throw new ForbiddenError(`You don't have permission to share items of "${String(collection)}".`, { field: 'collection' });
  }
  const rule = access.itemFilter(overview.collection, 'share');
  let query = db.selectFrom(overview.collection).select(sql.ref(overview.primary).as('key')).where(sql`${sql.ref(overview.primary)}::text`, '=', String(item));
  if (rule) query = query.where(sql<boolean>`${sql.ref(overview.primary)} in (${compilePermittedKeys(schema, overview.collection, rule, access.accountability)})`);
  if (!(await query.executeTakeFirst())) throw new ForbiddenError(`You don't have permission to share this item of "${overview.collection}".`, { field: 'item' });
}
