import { InvalidPayloadError } from '../errors.ts';
import { isSamePage, parseHttpUrl } from './http-url.ts';

/**
 * Decides which page a mailed link points to: `requested` when it is the default page or in the
 * allow-list (same origin and path; query and fragment are ignored), the default page when nothing was
 * requested, and a 400 naming `field` otherwise, so nobody can have Tessera mail links to a foreign site.
 */
export function resolveLinkPage(requested: string | undefined, defaultPage: string, allowList: readonly string[], field: string): URL {
  if (requested === undefined) return new URL(defaultPage);
  const url = parseHttpUrl(requested);
  const allowed = url !== null && [defaultPage, ...allowList].some((entry) => isSamePage(entry, url));
  if (!url || !allowed) throw new InvalidPayloadError(`"${field}" is not an allowed address for this link; allowed: ${[defaultPage, ...allowList].join(', ')}.`, { field });
  return url;
}

/** The page with `params` added to its query (existing parameters are kept). */
export function withParams(page: URL, params: Record<string, string>): string {
  const url = new URL(page);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}
