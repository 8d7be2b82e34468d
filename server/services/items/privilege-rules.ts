import { sql, type Kysely } from 'kysely';
import { ForbiddenError } from '../../errors.ts';
import type { Access } from '../../permissions/access.ts';

type Columns = Record<string, unknown>;
type Key = string | number;

/** What only an administrator may change of an administrator: whoever controls these controls the account. */
export const ADMIN_ACCOUNT_FIELDS = ['email', 'password', 'status', 'role', 'token', 'tfa_secret', 'provider', 'external_identifier', 'auth_data'] as const;

/** Account fields whose stored value is the value sent (secrets are stored hashed or encrypted). */
const COMPARABLE = new Set<string>(['email', 'status', 'role', 'provider', 'external_identifier']);

/**
 * Only administrators make, change or remove administrators. Checked on the column values a write is
 * about to store (after m2o objects became keys, imports and batches became rows), so no payload shape
 * can slip a value past it; whatever permissions a role has on users and roles, it cannot reach full
 * control through them.
 */
export async function assertPrivilegeRules(db: Kysely<any>, access: Access | null, collection: string, columns: Columns, keys: readonly Key[] | null): Promise<void> {
  if (!access) return;
  if (collection === 'tessera_roles') {
    if (Object.hasOwn(columns, 'admin_access') && storesTrue(columns.admin_access)) {
      throw new ForbiddenError('Only administrators can give a role admin access.', { field: 'admin_access' });
    }
    if (keys && (await countAdminRoles(db, keys)) > 0) throw new ForbiddenError('Only administrators can change a role with admin access.', { field: Object.keys(columns)[0] ?? 'id' });
  }
  if (collection === 'tessera_users') {
    if (columns.role !== undefined && columns.role !== null && (await countAdminRoles(db, [columns.role as Key])) > 0 && !(keys && (await allHaveRole(db, keys, columns.role as Key)))) {
      throw new ForbiddenError('Only administrators can assign an admin role.', { field: 'role' });
    }
    const touched = ADMIN_ACCOUNT_FIELDS.filter((field) => Object.hasOwn(columns, field));
    if (keys && touched.length > 0) {
      const admins = await adminUsers(db, keys);
      // A form sending an administrator's unchanged e-mail or status back is not a change; a secret always is.
      const changed = touched.find((field) => !COMPARABLE.has(field) || admins.some((admin) => !sameValue(admin[field], columns[field])));
      if (admins.length > 0 && changed) throw new ForbiddenError(`Only administrators can change "${changed}" of an administrator.`, { field: changed });
    }
  }
}

/** Only administrators delete administrators or admin roles. */
export async function assertPrivilegedDelete(db: Kysely<any>, access: Access | null, collection: string, keys: readonly Key[]): Promise<void> {
  if (!access || keys.length === 0) return;
  if (collection === 'tessera_roles' && (await countAdminRoles(db, keys)) > 0) throw new ForbiddenError('Only administrators can delete a role with admin access.');
  if (collection === 'tessera_users' && (await countAdminUsers(db, keys)) > 0) throw new ForbiddenError('Only administrators can delete an administrator.');
}

/** A boolean column value as PostgreSQL would store it. */
function storesTrue(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return typeof value === 'string' && ['t', 'true', 'y', 'yes', 'on', '1'].includes(value.trim().toLowerCase());
}

// Keys are compared as text: a malformed key then matches nothing instead of failing the cast.
async function countAdminRoles(db: Kysely<any>, keys: readonly Key[]): Promise<number> {
  const row = await db
    .selectFrom('tessera_roles')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where(sql`id::text`, 'in', keys.map(String))
    .where('admin_access', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function adminUsers(db: Kysely<any>, keys: readonly Key[]): Promise<Array<Record<string, unknown>>> {
  return db
    .selectFrom('tessera_users as u')
    .innerJoin('tessera_roles as r', 'r.id', 'u.role')
    .select(['u.email', 'u.status', 'u.role', 'u.provider', 'u.external_identifier'])
    .where(sql`u.id::text`, 'in', keys.map(String))
    .where('r.admin_access', '=', true)
    .execute();
}

async function countAdminUsers(db: Kysely<any>, keys: readonly Key[]): Promise<number> {
  return (await adminUsers(db, keys)).length;
}

/** Whether every listed user already has this role (sending it back unchanged is no assignment). */
async function allHaveRole(db: Kysely<any>, keys: readonly Key[], role: Key): Promise<boolean> {
  const row = await db
    .selectFrom('tessera_users')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where(sql`id::text`, 'in', keys.map(String))
    .where(sql`role::text`, 'is distinct from', String(role))
    .executeTakeFirstOrThrow();
  return Number(row.count) === 0;
}

function sameValue(stored: unknown, sent: unknown): boolean {
  return (stored ?? null) === (sent ?? null) || (stored !== null && stored !== undefined && sent !== null && sent !== undefined && String(stored) === String(sent));
}
