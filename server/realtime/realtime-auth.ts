import type { IncomingMessage, ServerResponse } from 'node:http';
import Cookies from 'cookies';
import type { AppContext } from '../app-context.ts';
import { getChunkedCookie } from '../auth/cookie-chunks.ts';
import { cookieKeys, SESSION_COOKIE } from '../auth/session-cookie.ts';
import { findActiveSession } from '../auth/sessions.ts';
import { assertIssuedAfterStamp } from '../auth/access-stamp-check.ts';
import { verifyAccessTokenWithExpiry } from '../auth/access-token.ts';
import type { Accountability } from '../auth/accountability.ts';
import { deriveKey } from '../auth/secret-keys.ts';
import { staticTokenCaller } from '../auth/static-token.ts';
import { InvalidPayloadError } from '../errors.ts';

/** Who a socket speaks for, and until when (null: a static token, which does not expire). */
export interface SocketCaller {
  accountability: Accountability;
  expiresAt: number | null;
  refreshToken?: string;
}

type Origin = Pick<Accountability, 'ip' | 'userAgent' | 'origin'>;

/** Resolves an `auth` message (`access_token`, or `email` + `password`) into a caller, as REST would. */
export async function authenticateMessage(app: AppContext, message: Record<string, unknown>, origin: Origin): Promise<SocketCaller> {
  if (typeof message.access_token === 'string' && message.access_token) return callerFromToken(app, message.access_token, origin);
  if (typeof message.email === 'string' && typeof message.password === 'string') {
    const anonymous: Accountability = { user: null, role: null, admin: false, app: false, session: null, share: null, ...origin };
    // The sign-in service (argon2, TOTP) loads with the first password sign-in, not with the server.
    const { AuthService } = await import('../auth/auth-service.ts');
    const tokens = await new AuthService(app.servicesContext(anonymous)).login({ email: message.email, password: message.password, otp: typeof message.otp === 'string' ? message.otp : null });
    return { ...(await callerFromToken(app, tokens.access_token, origin)), refreshToken: tokens.refresh_token };
  }
  throw new InvalidPayloadError('"access_token" or "email" and "password" are required.');
}

export async function callerFromToken(app: AppContext, token: string, origin: Origin): Promise<SocketCaller> {
  const anonymous: Accountability = { user: null, role: null, admin: false, app: false, session: null, share: null, ...origin };
  const staticCaller = await staticTokenCaller(app.database.kysely(), token, anonymous);
  if (staticCaller) return { accountability: staticCaller, expiresAt: null };
  const { claims, expiresAt, issuedAt } = await verifyAccessTokenWithExpiry(token, deriveKey(app.config.secret, 'access-token'));
  if (claims.id) await assertIssuedAfterStamp(app, claims.id, issuedAt);
  return {
    accountability: { ...origin, user: claims.id, role: claims.role, admin: claims.admin_access, app: claims.app_access, session: claims.session, share: claims.share ?? null },
    expiresAt,
  };
}

/**
 * The session cookie of a WebSocket upgrade (a browser signed in to the admin or the /auth pages), as REST reads it.
 * Only for a same-origin page (or a client sending no Origin): a page of another site must not ride on the cookie.
 */
export async function callerFromCookie(app: AppContext, request: IncomingMessage, origin: Origin): Promise<SocketCaller | null> {
  if (!request.headers.cookie || !sameOrigin(app, request)) return null;
  const cookies = new Cookies(request, {} as ServerResponse, { keys: cookieKeys(app.config.secret) });
  const token = getChunkedCookie(cookies, SESSION_COOKIE, { signed: true });
  if (!token) return null;
  const session = await findActiveSession(app.database.kysely(), token);
  if (!session) return null;
  return {
    accountability: { ...origin, user: session.user, role: session.role, admin: session.admin_access, app: session.app_access, session: session.hash, share: session.share },
    expiresAt: session.expires.getTime(),
  };
}

function sameOrigin(app: AppContext, request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host === request.headers.host || host === new URL(app.config.server.publicUrl).host;
}

/**
 * Who opens a WebSocket (`/websocket` and graphql-ws on `/graphql`): an access or static token from
 * `?access_token=` or `Authorization: Bearer`, else the session cookie, else nobody yet (null). A token that
 * does not verify throws (the upgrade answers 401).
 */
export async function upgradeCaller(app: AppContext, request: IncomingMessage, url: URL, origin: Origin): Promise<SocketCaller | null> {
  const header = request.headers.authorization;
  const token = url.searchParams.get('access_token') || (header?.toLowerCase().startsWith('bearer ') ? header.slice(7) : null);
  if (token) return callerFromToken(app, token, origin);
  return callerFromCookie(app, request, origin);
}
