import { randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, InvalidPayloadError } from '../errors.ts';
import { authCookieOptions, readAuthCookie } from './session-cookie.ts';

/** Cookie holding the CSRF token of the sign-in pages (double-submit: forms send it back as `csrfToken`). */
export const CSRF_COOKIE = 'tessera_csrf_token';

/** SPEC §9: a CSRF token is 32 random bytes. */
const CSRF_TOKEN_BYTES = 32;

/**
 * The CSRF token of this browser: the one in its signed cookie, or a new one (32 random bytes, hex)
 * set as a signed, httpOnly cookie for the browser session.
 */
export function ensureCsrfToken(ctx: Koa.Context, app: AppContext): string {
  const existing = readAuthCookie(ctx, CSRF_COOKIE);
  if (existing && /^[0-9a-f]{64}$/.test(existing)) return existing;
  const token = randomBytes(CSRF_TOKEN_BYTES).toString('hex');
  if (app.config.server.publicUrl.startsWith('https:')) ctx.cookies.secure = true;
  ctx.cookies.set(CSRF_COOKIE, token, authCookieOptions(app));
  return token;
}

/**
 * Checks a form's `csrfToken` against the signed cookie. Missing: 400 INVALID_PAYLOAD; not matching
 * (or no valid cookie to match): 403 FORBIDDEN. Both name the field.
 */
export function assertCsrfToken(ctx: Koa.Context, submitted: unknown): void {
  if (typeof submitted !== 'string' || submitted === '') {
    throw new InvalidPayloadError('"csrfToken" is required: read it from GET /auth/csrf or the form.', { field: 'csrfToken' });
  }
  if (!csrfTokenMatches(ctx, submitted)) throw new ForbiddenError('"csrfToken" does not match the CSRF cookie of this browser.', { field: 'csrfToken' });
}

/** True when `submitted` equals the CSRF token in this browser's signed cookie (false without a valid cookie). */
export function csrfTokenMatches(ctx: Koa.Context, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const expected = Buffer.from(readAuthCookie(ctx, CSRF_COOKIE) ?? '');
  const given = Buffer.from(submitted);
  return expected.length > 0 && expected.length === given.length && timingSafeEqual(expected, given);
}
