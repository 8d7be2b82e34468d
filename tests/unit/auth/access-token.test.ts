import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken, verifyAccessTokenWithExpiry, type AccessTokenClaims } from '../../../server/auth/access-token.ts';
import { deriveKey, requireSecret } from '../../../server/auth/secret-keys.ts';
import { InvalidTokenError, TokenExpiredError } from '../../../server/errors.ts';

const SECRET = 'a-test-secret-that-is-long-enough-123';
const key = deriveKey(SECRET, 'access-token');
const claims: AccessTokenClaims = { id: 'user-1', role: 'role-1', app_access: true, admin_access: false, session: 'session-hash' };

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decodePart = (part: string | undefined) => JSON.parse(Buffer.from(part ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('access tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('round-trips the claims', async () => {
    const token = await signAccessToken(claims, key, 60_000);
    await expect(verifyAccessToken(token, key)).resolves.toEqual({ ...claims, share: null });
  });

  it('round-trips a share session token, which has no user but a share', async () => {
    const share = { id: null, role: 'role-1', app_access: false, admin_access: false, session: 'session-hash', share: 'share-1' };
    await expect(verifyAccessToken(await signAccessToken(share, key, 60_000), key)).resolves.toEqual(share);
  });

  it('refuses a token with neither a user nor a share', async () => {
    const token = await signAccessToken({ ...claims, id: null }, key, 60_000);
    await expect(verifyAccessToken(token, key)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('signs with HS256, issuer tessera and the requested lifetime', async () => {
    const token = await signAccessToken(claims, key, 60_000);
    const [header, payload] = token.split('.');
    expect(decodePart(header)).toEqual({ alg: 'HS256' });
    const decoded = decodePart(payload);
    expect(decoded.iss).toBe('tessera');
    // iat carries milliseconds (compared with access stamps); exp stays whole seconds.
    expect(Number(decoded.exp) - Math.floor(Number(decoded.iat))).toBe(60);
    expect(Math.abs(Number(decoded.iat) * 1000 - Date.now())).toBeLessThan(5_000);
  });

  it('tells when a token was issued, to the millisecond', async () => {
    const before = Date.now();
    const { issuedAt } = await verifyAccessTokenWithExpiry(await signAccessToken(claims, key, 60_000), key);
    expect(issuedAt).toBeGreaterThanOrEqual(before);
    expect(issuedAt).toBeLessThanOrEqual(Date.now());
  });

  it('reports an expired token as TOKEN_EXPIRED', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const token = await signAccessToken(claims, key, 1_000);
    vi.setSystemTime(Date.now() + 5_000);
    const error = await verifyAccessToken(token, key).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error).toMatchObject({ code: 'TOKEN_EXPIRED', status: 401 });
  });

  it('rejects a token signed with another key', async () => {
    const token = await signAccessToken(claims, deriveKey('another-secret-that-is-long-enough-456', 'access-token'), 60_000);
    await expect(verifyAccessToken(token, key)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('rejects a tampered payload', async () => {
    const [header, payload, signature] = (await signAccessToken(claims, key, 60_000)).split('.');
    const forged = base64url({ ...decodePart(payload), admin_access: true });
    await expect(verifyAccessToken(`${header}.${forged}.${signature}`, key)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('rejects garbage', async () => {
    for (const token of ['', 'garbage', 'a.b.c']) {
      await expect(verifyAccessToken(token, key)).rejects.toMatchObject({ code: 'INVALID_TOKEN', status: 401 });
    }
  });

  it('rejects an unsigned token (alg: none)', async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims, iss: 'tessera', exp })}.`;
    await expect(verifyAccessToken(token, key)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('rejects a validly signed token without the required claims', async () => {
    const token = await signAccessToken({ ...claims, id: undefined } as unknown as AccessTokenClaims, key, 60_000);
    await expect(verifyAccessToken(token, key)).rejects.toBeInstanceOf(InvalidTokenError);
  });
});

describe('deriveKey', () => {
  it('derives the same 32-byte key for the same secret and purpose', () => {
    const first = deriveKey(SECRET, 'access-token');
    expect(first).toHaveLength(32);
    expect(deriveKey(SECRET, 'access-token')).toEqual(first);
  });

  it('derives a different key per purpose and per secret', () => {
    const accessToken = Buffer.from(deriveKey(SECRET, 'access-token')).toString('hex');
    const cookie = Buffer.from(deriveKey(SECRET, 'cookie')).toString('hex');
    const tfa = Buffer.from(deriveKey(SECRET, 'tfa-secret')).toString('hex');
    const otherSecret = Buffer.from(deriveKey(`${SECRET}!`, 'access-token')).toString('hex');
    expect(new Set([accessToken, cookie, tfa, otherSecret]).size).toBe(4);
  });
});

describe('requireSecret', () => {
  it('returns the secret when set', () => {
    expect(requireSecret({ secret: SECRET })).toBe(SECRET);
  });

  it('throws without a secret', () => {
    expect(() => requireSecret({ secret: null })).toThrow(/SECRET is not set/);
    expect(() => requireSecret({ secret: '' })).toThrow(/SECRET is not set/);
  });
});
