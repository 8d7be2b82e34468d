/**
 * Where to send the browser after signing in or out (SPEC §5): `value` when it is an http(s) URL on
 * PUBLIC_URL's origin (a path such as `/admin` counts, taken on that origin), else PUBLIC_URL itself.
 */
export function safeCallbackUrl(value: unknown, publicUrl: string): string {
  const base = new URL(publicUrl);
  if (typeof value !== 'string' || value === '' || value.length > 2048) return publicUrl;
  // `//host/…` and `/\host/…` are another origin to a browser, whatever they look like.
  const relative = value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
  let url: URL;
  try {
    url = relative ? new URL(value, base.origin) : new URL(value);
  } catch {
    return publicUrl;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== base.origin) return publicUrl;
  return url.toString();
}
