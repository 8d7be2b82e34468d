import type Koa from 'koa';
import type Cookies from 'cookies';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, UserSuspendedError } from '../errors.ts';
import { clearChunkedCookie, getChunkedCookie, setChunkedCookie } from './cookie-chunks.ts';
import { assertIpAllowed } from './ip-access.ts';
import { deriveKey } from './secret-keys.ts';
import { createSession, deleteSession, extendSessionIfDue, findActiveSession, type ActiveSession } from './sessions.ts';

/** Cookie carrying the session token (session mode and the /auth pages). */
export const SESSION_COOKIE = 'tessera_session_token';
/** Cookie carrying the refresh token in cookie mode. */
export const REFRESH_COOKIE = 'tessera_refresh_token';

/** Keys Koa signs cookies with (`app.keys`), derived from SECRET so no second secret is needed. */
export function cookieKeys(secret: string): string[] {
  return [Buffer.from(deriveKey(secret, 'cookie')).toString('base64url')];
}

/**
 * Attributes of Tessera's own auth cookies: httpOnly, SameSite=Lax, signed, and Secure when
 * PUBLIC_URL is https (the connection itself may be plain HTTP behind a TLS-terminating proxy).
 */
export function authCookieOptions(app: AppContext, maxAgeMs?: number): Cookies.SetOption {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttpsPublicUrl(app),
    path: '/',
    signed: true,
    overwrite: true,
    ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }),
  };
}

function isHttpsPublicUrl(app: AppContext): boolean {
  return app.config.server.publicUrl.startsWith('https:');
}

/** Writes a signed auth cookie (chunked when long). */
export function setAuthCookie(ctx: Koa.Context, app: AppContext, name: string, value: string, maxAgeMs: number): void {
  // Lets the cookies library mark the cookie Secure even when TLS ends at a proxy in front of us.
  if (isHttpsPublicUrl(app)) ctx.cookies.secure = true;
  setChunkedCookie(ctx.cookies, ctx.get('Cookie'), name, value, authCookieOptions(app, maxAgeMs));
}

/** Reads a signed auth cookie; undefined when absent or when its signature does not match (tampered). */
export function readAuthCookie(ctx: Koa.Context, name: string): string | undefined {
  return getChunkedCookie(ctx.cookies, name, { signed: true });
}

/** True when the request carries the cookie at all, whether or not its signature holds. */
export function hasCookie(ctx: Koa.Context, name: string): boolean {
  return ctx.cookies.get(name, { signed: false }) !== undefined || ctx.cookies.get(`${name}.0`, { signed: false }) !== undefined;
}

/** Expires a signed auth cookie and its chunks. */
export function clearAuthCookie(ctx: Koa.Context, app: AppContext, name: string): void {
  if (isHttpsPublicUrl(app)) ctx.cookies.secure = true;
  clearChunkedCookie(ctx.cookies, ctx.get('Cookie'), name, authCookieOptions(app));
}

/** Where a request comes from, as stored on a session row. */
export function requestOrigin(ctx: Koa.Context): { ip: string | null; userAgent: string | null; origin: string | null } {
  return { ip: ctx.ip || null, userAgent: ctx.get('User-Agent') || null, origin: ctx.get('Origin') || null };
}

/**
 * Signs `userId` in with a session cookie: the user must be active and the request's address allowed
 * by the role's ip_access. Opens a session row (SPEC §9 lifetime) and sets `tessera_session_token`.
 * Called at the end of every page sign-in (credentials, e-mail link, OpenID).
 */
export async function startCookieSession(ctx: Koa.Context, app: AppContext, userId: string): Promise<void> {
  const db = app.database.kysely();
  const user = await db
    .selectFrom('tessera_users as u')
    .leftJoin('tessera_roles as r', 'r.id', 'u.role')
    .select(['u.id', 'u.status', 'r.ip_access'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new ForbiddenError('This user does not exist.');
  if (user.status !== 'active') throw new UserSuspendedError(`User is ${user.status} and cannot sign in.`);
  assertIpAllowed(user.ip_access, ctx.ip || null);

  const lifetimeMs = app.config.auth.refreshTokenTtlMs;
  const { token } = await createSession(db, userId, requestOrigin(ctx), lifetimeMs);
  await db.updateTable('tessera_users').set({ last_access: new Date() }).where('id', '=', userId).execute();
  setAuthCookie(ctx, app, SESSION_COOKIE, token, lifetimeMs);
}

/** Signs out the session of the request's session cookie (if any) and clears the cookie. */
export async function endCookieSession(ctx: Koa.Context, app: AppContext): Promise<void> {
  const token = readAuthCookie(ctx, SESSION_COOKIE);
  if (token) await deleteSession(app.database.kysely(), token);
  clearAuthCookie(ctx, app, SESSION_COOKIE);
}

/**
 * The live session behind the request's session cookie, or null. A session due for extension (SPEC §9
 * update age) gets a new expiry and a fresh cookie; a cookie that is tampered with, unknown or expired
 * is cleared, so the browser stops sending it.
 */
export function readCookieSession(ctx: Koa.Context, app: AppContext): Promise<ActiveSession | null> {
  let read = sessionReads.get(ctx);
  if (!read) {
    read = lookUpCookieSession(ctx, app);
    sessionReads.set(ctx, read);
  }
  return read;
}

// One look-up per request, however many places ask (accountability, /auth/session).
const sessionReads = new WeakMap<Koa.Context, Promise<ActiveSession | null>>();

async function lookUpCookieSession(ctx: Koa.Context, app: AppContext): Promise<ActiveSession | null> {
  if (!hasCookie(ctx, SESSION_COOKIE)) return null;
  const token = readAuthCookie(ctx, SESSION_COOKIE);
  const db = app.database.kysely();
  const session = token ? await findActiveSession(db, token) : null;
  if (!token || !session) {
    clearAuthCookie(ctx, app, SESSION_COOKIE);
    return null;
  }
  const lifetimeMs = app.config.auth.refreshTokenTtlMs;
  const extended = await extendSessionIfDue(db, session, lifetimeMs);
  if (extended) {
    session.expires = extended;
    setAuthCookie(ctx, app, SESSION_COOKIE, token, lifetimeMs);
  }
  return session;
}
