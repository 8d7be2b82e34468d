import { sql, type Kysely } from 'kysely';
import { ACCESS_STAMPS_TABLE } from '../../migrations/20261126000020-auth-access-stamps.ts';

/**
 * Access stamps by user id, in epoch milliseconds: access tokens issued at or before a user's stamp are
 * refused. `Infinity` stands for a user who no longer exists.
 */
export type AccessStamps = Map<string, number>;

/** Who is told when a user's access ends (the app's stamp cache, shared with other instances). */
export interface AccessStampPublisher {
  /** Raises this instance's stamps and tells the other instances; call once the change is committed. */
  publish(stamps: AccessStamps): void;
}

/**
 * Ends everything issued to `users` until now: stamps them (access tokens issued up to now stop working)
 * and deletes their sessions (refresh tokens and session cookies). Runs in the caller's transaction, so
 * the cut commits with the change that caused it. Returns the stamps to publish after the commit.
 */
export async function endUserAccess(db: Kysely<any>, users: string[], now = Date.now()): Promise<AccessStamps> {
  const unique = [...new Set(users)];
  if (unique.length === 0) return new Map();
  await sql`insert into ${sql.table(ACCESS_STAMPS_TABLE)} as stamp ("user", "valid_after")
    select id, ${new Date(now)} from unnest(${unique}::uuid[]) as id
    on conflict ("user") do update set "valid_after" = greatest(stamp."valid_after", excluded."valid_after")`.execute(db);
  await db.deleteFrom('tessera_sessions').where('user', 'in', unique).execute();
  return new Map(unique.map((user) => [user, now]));
}

/** A user's stamp: 0 when their access was never cut, Infinity when the user does not exist. */
export async function readAccessStamp(db: Kysely<any>, user: string): Promise<number> {
  const row = await db
    .selectFrom('tessera_users as u')
    .leftJoin(`${ACCESS_STAMPS_TABLE} as s`, 's.user', 'u.id')
    .select('s.valid_after')
    .where('u.id', '=', user)
    .executeTakeFirst();
  if (!row) return Infinity;
  return row.valid_after ? new Date(row.valid_after).getTime() : 0;
}

/**
 * Which of the users an update writing `columns` cuts off: all of them for a new password or a status
 * other than active; for a role, those whose role really changes (saving a form unchanged signs nobody
 * out). Read before the update, inside its transaction.
 */
export async function usersLosingAccess(db: Kysely<any>, keys: Array<string | number>, columns: Record<string, unknown>): Promise<string[]> {
  if (keys.length === 0) return [];
  if (Object.hasOwn(columns, 'password') || (Object.hasOwn(columns, 'status') && columns.status !== 'active')) return keys.map(String);
  if (!Object.hasOwn(columns, 'role')) return [];
  const rows = await db
    .selectFrom('tessera_users')
    .select('id')
    .where('id', 'in', keys)
    .where('role', 'is distinct from', (columns.role ?? null) as string | null)
    .execute();
  return rows.map((row) => String(row.id));
}

/**
 * The users of roles a write cuts off: access tokens carry the role's `admin_access` and `app_access`, so
 * a role deleted (`columns` null) or really changing either flag ends its users' access.
 */
export async function roleUsersLosingAccess(db: Kysely<any>, roles: Array<string | number>, columns: Record<string, unknown> | null): Promise<string[]> {
  if (roles.length === 0) return [];
  const flags = columns ? (['admin_access', 'app_access'] as const).filter((flag) => Object.hasOwn(columns, flag)) : [];
  if (columns && flags.length === 0) return [];
  const rows = await db
    .selectFrom('tessera_users as u')
    .innerJoin('tessera_roles as r', 'r.id', 'u.role')
    .select('u.id')
    .where('u.role', 'in', roles)
    .$if(columns !== null, (query) => query.where((eb) => eb.or(flags.map((flag) => eb(`r.${flag}`, 'is distinct from', columns![flag] as boolean)))))
    .execute();
  return rows.map((row) => String(row.id));
}
