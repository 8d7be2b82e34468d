import type { IncomingMessage, ServerResponse } from 'node:http';
import Cookies from 'cookies';
import { describe, expect, it } from 'vitest';
import {
  clearChunkedCookie,
  COOKIE_CHUNK_SIZE,
  COOKIE_SIZE_LIMIT,
  cookieNamesFor,
  getChunkedCookie,
  joinCookieChunks,
  setChunkedCookie,
  splitCookieValue,
} from '../../../server/auth/cookie-chunks.ts';
import { parseSetCookies } from '../../integration/auth/sessions-cookie-jar.ts';

const reader = (cookies: Record<string, string>) => (name: string) => cookies[name];

describe('cookie chunks', () => {
  it('uses the SPEC §9 sizes: a 4,096-byte limit and chunks of 3,933 characters', () => {
    expect(COOKIE_SIZE_LIMIT).toBe(4096);
    expect(COOKIE_CHUNK_SIZE).toBe(3933);
  });

  it('keeps a value that fits in one cookie under its own name', () => {
    expect(splitCookieValue('session', 'abc')).toEqual([{ name: 'session', value: 'abc' }]);
    const largestWhole = 'x'.repeat(COOKIE_CHUNK_SIZE - 'session='.length);
    expect(splitCookieValue('session', largestWhole)).toEqual([{ name: 'session', value: largestWhole }]);
  });

  it('splits a longer value into name.0, name.1, … of 3,933 characters each', () => {
    const value = 'a'.repeat(COOKIE_CHUNK_SIZE) + 'b'.repeat(COOKIE_CHUNK_SIZE) + 'c'.repeat(10);
    const parts = splitCookieValue('session', value);
    expect(parts.map((part) => part.name)).toEqual(['session.0', 'session.1', 'session.2']);
    expect(parts.map((part) => part.value.length)).toEqual([3933, 3933, 10]);
    for (const part of parts) expect(Buffer.byteLength(`${part.name}=${part.value}`)).toBeLessThan(COOKIE_SIZE_LIMIT);
  });

  it('counts bytes, not characters, when deciding to split', () => {
    const multiByte = 'é'.repeat(2000); // 2,000 characters, 4,000 bytes: too big for one cookie
    expect(splitCookieValue('s', multiByte).map((part) => part.name)).toEqual(['s.0']);
  });

  it('joins the chunks back into the original value', () => {
    const value = Array.from({ length: 9000 }, (_, index) => String.fromCharCode(97 + (index % 26))).join('');
    const cookies = Object.fromEntries(splitCookieValue('big', value).map((part) => [part.name, part.value]));
    expect(Object.keys(cookies)).toEqual(['big.0', 'big.1', 'big.2']);
    expect(joinCookieChunks('big', reader(cookies))).toBe(value);
  });

  it('prefers the whole cookie, stops at the first missing chunk and is undefined when nothing is there', () => {
    expect(joinCookieChunks('s', reader({ s: 'whole', 's.0': 'chunk' }))).toBe('whole');
    expect(joinCookieChunks('s', reader({ 's.0': 'a', 's.1': 'b', 's.3': 'd' }))).toBe('ab');
    expect(joinCookieChunks('s', reader({ other: 'x' }))).toBeUndefined();
  });

  it("finds a cookie's own names in a Cookie header, not look-alikes", () => {
    const header = 's=1; s.0=a; s.1=b; s.sig=x; s.0.sig=y; sx=2; other.0=3';
    expect(cookieNamesFor('s', header)).toEqual(['s', 's.0', 's.1']);
    expect(cookieNamesFor('a.b', 'aXb.0=1; a.b.0=2')).toEqual(['a.b.0']);
    expect(cookieNamesFor('s', '')).toEqual([]);
  });
});

describe('chunked cookies through the cookies library (signed, as Koa writes them)', () => {
  const keys = ['unit-test-cookie-key'];

  /** One request/response pair: the request carries `cookieHeader`, the response collects Set-Cookie. */
  function exchange(cookieHeader: string) {
    const headers: Record<string, string | string[]> = {};
    const req = { headers: { cookie: cookieHeader }, connection: {}, socket: {} } as unknown as IncomingMessage;
    const res = {
      getHeader: (name: string) => headers[name.toLowerCase()],
      setHeader: (name: string, value: string | string[]) => {
        headers[name.toLowerCase()] = value;
      },
    } as unknown as ServerResponse;
    const cookies = new Cookies(req, res, { keys });
    const setCookies = () => parseSetCookies(headers['set-cookie']);
    return { cookies, setCookies };
  }

  /** The Cookie header a browser would send back after these Set-Cookie lines. */
  const sendBack = (set: ReturnType<typeof parseSetCookies>) =>
    set
      .filter((cookie) => cookie.value !== '')
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');

  it('writes a long value as signed chunks and reads it back whole', () => {
    const value = 'v'.repeat(9000);
    const first = exchange('');
    setChunkedCookie(first.cookies, '', 'big', value, { signed: true, httpOnly: true });
    const names = first.setCookies().map((cookie) => cookie.name);
    expect(names).toEqual(['big.0', 'big.0.sig', 'big.1', 'big.1.sig', 'big.2', 'big.2.sig']);
    const second = exchange(sendBack(first.setCookies()));
    expect(getChunkedCookie(second.cookies, 'big', { signed: true })).toBe(value);
  });

  it('refuses the whole value when one chunk was changed', () => {
    const first = exchange('');
    setChunkedCookie(first.cookies, '', 'big', 'w'.repeat(5000), { signed: true });
    const tampered = sendBack(first.setCookies()).replace(/big\.1=w/, 'big.1=X');
    const second = exchange(tampered);
    expect(getChunkedCookie(second.cookies, 'big', { signed: true })).toBeUndefined();
    expect(getChunkedCookie(second.cookies, 'big')).toContain('X');
  });

  it('expires chunks a shorter value no longer needs', () => {
    const first = exchange('');
    setChunkedCookie(first.cookies, '', 'big', 'x'.repeat(9000), { signed: true });
    const sent = sendBack(first.setCookies());
    const second = exchange(sent);
    setChunkedCookie(second.cookies, sent, 'big', 'short', { signed: true });
    const written = second.setCookies();
    expect(written.find((cookie) => cookie.name === 'big')?.value).toBe('short');
    for (const stale of ['big.0', 'big.1', 'big.2']) expect(written.find((cookie) => cookie.name === stale)?.value).toBe('');
    const third = exchange(sendBack(written));
    expect(getChunkedCookie(third.cookies, 'big', { signed: true })).toBe('short');
  });

  it('clears a cookie with all its chunks', () => {
    const first = exchange('');
    setChunkedCookie(first.cookies, '', 'big', 'y'.repeat(5000), { signed: true });
    const sent = sendBack(first.setCookies());
    const second = exchange(sent);
    clearChunkedCookie(second.cookies, sent, 'big', { signed: true });
    const cleared = second.setCookies().filter((cookie) => cookie.value === '').map((cookie) => cookie.name);
    expect(cleared).toEqual(expect.arrayContaining(['big', 'big.0', 'big.1']));
  });
});
