/**
 * An absolute http(s) URL, or null. With `base`, a path (`/admin`) is taken on the base's origin;
 * `//host/path` is protocol-relative, another origin, and is judged as such rather than as a path.
 */
export function parseHttpUrl(value: string, base?: string): URL | null {
  if (base && value.startsWith('/') && !value.startsWith('//')) value = new URL(base).origin + value;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** True when `url` is the page `entry` names: same origin and path (a trailing slash aside). */
export function isSamePage(entry: string, url: URL): boolean {
  const page = parseHttpUrl(entry);
  return page !== null && page.origin === url.origin && trimSlash(page.pathname) === trimSlash(url.pathname);
}

function trimSlash(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}
