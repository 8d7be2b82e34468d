import { describe, expect, it } from 'vitest';
import { COOKIE_CHUNK_SIZE, COOKIE_SIZE_LIMIT, cookieNamesFor, joinCookieChunks, splitCookieValue } from '../../../server/auth/cookie-chunks.ts';

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
