import type { AuthProviderConfig } from '../../config/load-config.ts';
import { InvalidQueryError } from '../../errors.ts';
import { isSamePage, parseHttpUrl } from '../http-url.ts';

/**
 * Where `GET /auth/login/:provider?redirect=` may send the browser after signing in: any http(s) page on
 * PUBLIC_URL's origin (a path like `/admin` is taken relative to that origin), or a page in the provider's
 * REDIRECT_ALLOW_LIST (same origin and path). Unset: PUBLIC_URL/admin. Anything else is a 400, so the
 * route cannot be used to bounce signed-in people to a foreign site.
 */
export function resolveRedirectTarget(publicUrl: string, provider: AuthProviderConfig, requested: unknown): string {
  if (requested === undefined || requested === '') return `${publicUrl}/admin`;
  const url = typeof requested === 'string' ? parseHttpUrl(requested, publicUrl) : null;
  const base = new URL(publicUrl);
  const allowed =
    url !== null &&
    (url.origin === base.origin ||
      provider.redirectAllowList.some((entry) => isSamePage(entry, url)));
  if (!url || !allowed) {
    throw new InvalidQueryError(`"redirect" must be an http(s) page on ${base.origin} or listed in AUTH_${provider.name.toUpperCase()}_REDIRECT_ALLOW_LIST.`, { field: 'redirect' });
  }
  return url.toString();
}
