import type Koa from 'koa';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError } from '../errors.ts';
import { csrfTokenMatches } from './csrf.ts';

/**
 * The body types a page on another site can post without a CORS preflight (HTML forms, `fetch` in
 * no-cors mode). JSON needs a preflight, which CORS_* settings govern, so the SDK's posts are not checked.
 */
const CROSS_SITE_TYPES = ['urlencoded', 'multipart', 'text/*'];

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Login CSRF: a form on another site must not sign a browser in (as the attacker's account). A credential
 * post with a form or text body is accepted only when its Origin (else its Referer) is PUBLIC_URL's origin
 * or this request's own, or when it carries the sign-in pages' `csrfToken` matching the CSRF cookie.
 * Anything else is 403 FORBIDDEN before the credentials are looked at.
 */
export function assertSameSiteCredentialPost(ctx: Koa.Context, app: AppContext): void {
  if (!ctx.request.is(CROSS_SITE_TYPES)) return;
  const allowed = new Set([new URL(app.config.server.publicUrl).origin, `${ctx.protocol}://${ctx.host}`]);
  const origin = ctx.get('Origin') ? originOf(ctx.get('Origin')) : originOf(ctx.get('Referer'));
  if (origin && allowed.has(origin)) return;
  const body = ctx.request.body;
  if (body && typeof body === 'object' && csrfTokenMatches(ctx, (body as Record<string, unknown>).csrfToken)) return;
  throw new ForbiddenError('A form post to this route must come from this site: send JSON, or the "csrfToken" of GET /auth/csrf from a page of this site.', {
    field: 'csrfToken',
  });
}
