import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

/** Shortest static token accepted: long enough that guessing one is hopeless. */
export const MIN_STATIC_TOKEN_LENGTH = 32;

/** The stored form of a static token (users.token): its SHA-256 in hex. */
export function hashStaticToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Who a static token belongs to. */
export interface StaticTokenOwner {
  id: string;
  role: string | null;
  admin_access: boolean;
  app_access: boolean;
  ip_access: string | null;
  enforce_tfa: boolean;
  tfa_enabled: boolean;
}

/**
 * The active user whose static token this is, or null. One indexed equality lookup on the hash
 * (users.token is unique); a suspended or otherwise inactive user's token opens nothing.
 */
export async function findStaticTokenOwner(db: Kysely<any>, token: string): Promise<StaticTokenOwner | null> {
  if (token.length < MIN_STATIC_TOKEN_LENGTH) return null;
  const row = await db
    .selectFrom('tessera_users as u')
    .leftJoin('tessera_roles as r', 'r.id', 'u.role')
    .select(['u.id', 'u.role', 'u.tfa_secret', 'r.admin_access', 'r.app_access', 'r.ip_access', 'r.enforce_tfa'])
    .where('u.token', '=', hashStaticToken(token))
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    role: row.role ?? null,
    admin_access: row.admin_access === true,
    app_access: row.app_access === true,
    ip_access: row.ip_access ?? null,
    enforce_tfa: row.enforce_tfa === true,
    tfa_enabled: row.tfa_secret !== null,
  };
}
