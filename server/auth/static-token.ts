import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { InvalidTokenError } from '../errors.ts';

/** Shortest static token accepted: long enough that guessing one is hopeless. */
export const MIN_STATIC_TOKEN_LENGTH = 32;

/** The stored form of a static token (users.token): its SHA-256 in hex. */
export function hashStaticToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** True for what has the shape of a JWT (three dot-separated base64url parts): never a static token. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

/** Who a static token belongs to. */
export interface StaticTokenOwner {
  id: string;
  role: string | null;
  admin_access: boolean;
  app_access: boolean;
}

/**
 * The active user whose static token this is, or null. One equality lookup of the token's hash on the
 * unique index of users.token; a suspended or otherwise inactive user's token opens nothing.
 */
export async function findStaticTokenOwner(db: Kysely<any>, token: string): Promise<StaticTokenOwner | null> {
  if (token.length < MIN_STATIC_TOKEN_LENGTH) return null;
  const row = await db
    .selectFrom('tessera_users as u')
    .leftJoin('tessera_roles as r', 'r.id', 'u.role')
    .select(['u.id', 'u.role', 'r.admin_access', 'r.app_access'])
    .where('u.token', '=', hashStaticToken(token))
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  if (!row) return null;
  return { id: row.id, role: row.role ?? null, admin_access: row.admin_access === true, app_access: row.app_access === true };
}

/**
 * The caller a static token stands for (the active user with their role), or null when the token is an
 * access token (JWT) to be verified instead. An unknown static token is INVALID_TOKEN.
 */
export async function staticTokenCaller<A extends { user: string | null; role: string | null; admin: boolean; app: boolean }>(db: Kysely<any>, token: string, anonymous: A): Promise<A | null> {
  if (looksLikeJwt(token)) return null;
  const owner = await findStaticTokenOwner(db, token);
  if (!owner) throw new InvalidTokenError();
  return { ...anonymous, user: owner.id, role: owner.role, admin: owner.admin_access, app: owner.app_access };
}
