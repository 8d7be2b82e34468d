import type Cookies from 'cookies';

/** Browsers keep at most 4,096 bytes per cookie, name and attributes included (SPEC §9). */
export const COOKIE_SIZE_LIMIT = 4096;
/** Room reserved for `; Path=/; Expires=…; HttpOnly; SameSite=Lax; Secure` and the like. */
const ESTIMATED_ATTRIBUTES_SIZE = 163;
/** Characters of value per chunk: what is left of the limit after the attributes (SPEC §9: about 3,933). */
export const COOKIE_CHUNK_SIZE = COOKIE_SIZE_LIMIT - ESTIMATED_ATTRIBUTES_SIZE;

/** One cookie to write: a whole value, or one chunk of it. */
export interface CookiePart {
  name: string;
  value: string;
}

/**
 * Splits a value into the cookies that carry it: one cookie `name` when it fits in the limit, else
 * `name.0`, `name.1`, … of COOKIE_CHUNK_SIZE characters each. Cookie values are ASCII (tokens,
 * base64url), where characters and bytes coincide.
 */
export function splitCookieValue(name: string, value: string): CookiePart[] {
  if (Buffer.byteLength(`${name}=${value}`) + ESTIMATED_ATTRIBUTES_SIZE <= COOKIE_SIZE_LIMIT) return [{ name, value }];
  const parts: CookiePart[] = [];
  for (let offset = 0, index = 0; offset < value.length; offset += COOKIE_CHUNK_SIZE, index++) {
    parts.push({ name: `${name}.${index}`, value: value.slice(offset, offset + COOKIE_CHUNK_SIZE) });
  }
  return parts;
}

/**
 * Joins what splitCookieValue wrote: the whole cookie `name` if present, else the chunks `name.0`,
 * `name.1`, … up to the first gap. Undefined when there is neither.
 */
export function joinCookieChunks(name: string, read: (cookieName: string) => string | undefined): string | undefined {
  const whole = read(name);
  if (whole !== undefined) return whole;
  const chunks: string[] = [];
  for (let index = 0; ; index++) {
    const chunk = read(`${name}.${index}`);
    if (chunk === undefined) break;
    chunks.push(chunk);
  }
  return chunks.length > 0 ? chunks.join('') : undefined;
}

/** Names of the cookies in a `Cookie` header that belong to `name`: the whole one and its chunks. */
export function cookieNamesFor(name: string, cookieHeader: string): string[] {
  const chunk = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+$`);
  return cookieHeader
    .split(';')
    .map((pair) => pair.split('=')[0]?.trim() ?? '')
    .filter((cookieName) => cookieName === name || chunk.test(cookieName));
}

/**
 * Writes `value` under `name`, chunked when too long, and expires whatever the request carried under
 * that name that the new value no longer uses (a shorter value needs fewer chunks).
 */
export function setChunkedCookie(cookies: Cookies, cookieHeader: string, name: string, value: string, options: Cookies.SetOption): void {
  const parts = splitCookieValue(name, value);
  for (const part of parts) cookies.set(part.name, part.value, options);
  const written = new Set(parts.map((part) => part.name));
  for (const stale of cookieNamesFor(name, cookieHeader)) {
    if (!written.has(stale)) cookies.set(stale, null, { ...options, maxAge: undefined, expires: new Date(0) });
  }
}

/** Reads a possibly chunked cookie; with `signed`, a chunk whose signature fails makes the whole value undefined. */
export function getChunkedCookie(cookies: Cookies, name: string, options: { signed?: boolean } = {}): string | undefined {
  let tampered = false;
  const value = joinCookieChunks(name, (cookieName) => {
    const plain = cookies.get(cookieName, { signed: false });
    if (plain === undefined || !options.signed) return plain;
    const verified = cookies.get(cookieName, { signed: true });
    if (verified === undefined) tampered = true;
    return plain;
  });
  return tampered ? undefined : value;
}

/** Expires a cookie and all its chunks found in the request. */
export function clearChunkedCookie(cookies: Cookies, cookieHeader: string, name: string, options: Cookies.SetOption): void {
  const names = new Set([name, ...cookieNamesFor(name, cookieHeader)]);
  for (const cookieName of names) cookies.set(cookieName, null, { ...options, maxAge: undefined, expires: new Date(0) });
}
