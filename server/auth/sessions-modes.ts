import type Koa from 'koa';
import type { AppContext } from '../app-context.ts';
import { InvalidPayloadError, InvalidTokenError } from '../errors.ts';
import type { AuthTokens } from './auth-service.ts';
import { clearAuthCookie, hasCookie, readAuthCookie, REFRESH_COOKIE, SESSION_COOKIE, setAuthCookie } from './session-cookie.ts';

/** How a sign-in hands its tokens over (DESIGN §4, Directus conventions). */
export const AUTH_MODES = ['json', 'cookie', 'session'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** What the client receives in `data` for each mode. */
export type DeliveredTokens = AuthTokens | Omit<AuthTokens, 'refresh_token'> | { expires: number };

/**
 * Hands tokens over in `mode`:
 * - json: all three in the body;
 * - cookie: the refresh token as the httpOnly `tessera_refresh_token` cookie, the access token in the body;
 * - session: the session token as the httpOnly `tessera_session_token` cookie; the body says only when
 *   the session expires (milliseconds from now), as no token is meant for scripts.
 */
export function deliverTokens(ctx: Koa.Context, app: AppContext, tokens: AuthTokens, mode: AuthMode): DeliveredTokens {
  const lifetimeMs = app.config.auth.refreshTokenTtlMs;
  if (mode === 'cookie') {
    setAuthCookie(ctx, app, REFRESH_COOKIE, tokens.refresh_token, lifetimeMs);
    return { access_token: tokens.access_token, expires: tokens.expires };
  }
  if (mode === 'session') {
    setAuthCookie(ctx, app, SESSION_COOKIE, tokens.refresh_token, lifetimeMs);
    return { expires: lifetimeMs };
  }
  return tokens;
}

/**
 * The mode of a refresh or logout: as named, else json when the body carries the token, else whichever
 * cookie the request has (session first), else json.
 */
export function resolveMode(ctx: Koa.Context, body: { mode?: AuthMode | undefined; refresh_token?: string | undefined }): AuthMode {
  if (body.mode) return body.mode;
  if (body.refresh_token) return 'json';
  if (hasCookie(ctx, SESSION_COOKIE)) return 'session';
  if (hasCookie(ctx, REFRESH_COOKIE)) return 'cookie';
  return 'json';
}

/**
 * The refresh (or session) token of a refresh or logout: from the body, else from the mode's cookie
 * (json mode falls back to the refresh cookie). A cookie whose signature fails is INVALID_TOKEN; no
 * token anywhere is INVALID_PAYLOAD naming refresh_token.
 */
export function readRefreshToken(ctx: Koa.Context, bodyToken: string | undefined, mode: AuthMode): string {
  if (bodyToken) return bodyToken;
  const cookie = mode === 'session' ? SESSION_COOKIE : REFRESH_COOKIE;
  const token = readAuthCookie(ctx, cookie);
  if (token) return token;
  if (hasCookie(ctx, cookie)) throw new InvalidTokenError(`The ${cookie} cookie is invalid or was tampered with.`);
  throw new InvalidPayloadError(`"refresh_token" is required, in the body or the ${cookie} cookie.`, { field: 'refresh_token' });
}

/** Expires the cookie of `mode` after a logout (json mode leaves cookies alone). */
export function clearModeCookie(ctx: Koa.Context, app: AppContext, mode: AuthMode): void {
  if (mode === 'cookie') clearAuthCookie(ctx, app, REFRESH_COOKIE);
  if (mode === 'session') clearAuthCookie(ctx, app, SESSION_COOKIE);
}
