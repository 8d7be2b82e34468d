import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/** The stored form of a refresh token: its SHA-256, so a database leak yields no usable tokens. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A session whose expiry was last set more than this long ago is extended on use (SPEC §9: 1 day). */
export const SESSION_UPDATE_AGE_MS = 24 * 60 * 60 * 1000;

/** Where a session was opened from, kept on its row. */
export interface SessionOrigin {
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
}

/** A live session with what accountability needs about its user. */
export interface ActiveSession {
  /** The stored hash of the session token. */
  hash: string;
  user: string;
  expires: Date;
  share: string | null;
  role: string | null;
  admin_access: boolean;
  app_access: boolean;
  name: string | null;
  email: string | null;
  avatar: string | null;
}

/** Opens a session row for `user` valid `lifetimeMs`; returns the raw token (only its SHA-256 is stored). */
export async function createSession(db: Kysely<any>, user: string, from: SessionOrigin, lifetimeMs: number): Promise<{ token: string; expires: Date }> {
  await deleteExpiredSessions(db);
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + lifetimeMs);
  await db
    .insertInto('tessera_sessions')
    .values({ token: hashSessionToken(token), user, expires, ip: from.ip, user_agent: from.userAgent, origin: from.origin })
    .execute();
  return { token, expires };
}

/**
 * The session of a raw token when it exists, has not expired and belongs to an active user; null
 * otherwise. An expired row is deleted on the way (SPEC §4: sessions are deleted on expiry).
 */
export async function findActiveSession(db: Kysely<any>, token: string, now = new Date()): Promise<ActiveSession | null> {
  const hash = hashSessionToken(token);
  const row = await db
    .selectFrom('tessera_sessions as s')
    .innerJoin('tessera_users as u', 'u.id', 's.user')
    .leftJoin('tessera_roles as r', 'r.id', 'u.role')
    .select(['s.user', 's.expires', 's.share', 'u.status', 'u.role', 'u.first_name', 'u.last_name', 'u.email', 'u.avatar', 'r.admin_access', 'r.app_access'])
    .where('s.token', '=', hash)
    .executeTakeFirst();
  if (!row) return null;
  const expires = new Date(row.expires);
  if (expires.getTime() <= now.getTime()) {
    await db.deleteFrom('tessera_sessions').where('token', '=', hash).execute();
    return null;
  }
  if (row.status !== 'active') return null;
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ') || null;
  return {
    hash,
    user: row.user,
    expires,
    share: row.share ?? null,
    role: row.role ?? null,
    admin_access: row.admin_access === true,
    app_access: row.app_access === true,
    name,
    email: row.email ?? null,
    avatar: row.avatar ?? null,
  };
}

/**
 * Extends a session to a full lifetime from now when its expiry was last set more than
 * SESSION_UPDATE_AGE_MS ago; returns the new expiry, or null when no update was due.
 */
export async function extendSessionIfDue(db: Kysely<any>, session: Pick<ActiveSession, 'hash' | 'expires'>, lifetimeMs: number, now = new Date()): Promise<Date | null> {
  const lastSet = session.expires.getTime() - lifetimeMs;
  if (now.getTime() - lastSet < SESSION_UPDATE_AGE_MS) return null;
  const expires = new Date(now.getTime() + lifetimeMs);
  await db.updateTable('tessera_sessions').set({ expires }).where('token', '=', session.hash).execute();
  return expires;
}

/** Deletes the session of a raw token; unknown tokens are ignored (signing out twice is fine). */
export async function deleteSession(db: Kysely<any>, token: string): Promise<void> {
  await db.deleteFrom('tessera_sessions').where('token', '=', hashSessionToken(token)).execute();
}

/** Removes every expired session row; runs whenever a session is opened, so the table never accumulates them. */
export async function deleteExpiredSessions(db: Kysely<any>, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('tessera_sessions').where('expires', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
