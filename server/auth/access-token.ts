import { errors, jwtVerify, SignJWT } from 'jose';
import { InvalidTokenError, TokenExpiredError } from '../errors.ts';

/** What an access token asserts about its bearer. */
export interface AccessTokenClaims {
  /** The user; null only in a share session's token. */
  id: string | null;
  role: string | null;
  app_access: boolean;
  admin_access: boolean;
  /** Hash of the session (refresh token) the access token was issued for. */
  session: string;
  /** For a share session: the share's id (the session then reads only the shared item). */
  share?: string | null;
}

const ISSUER = 'tessera';

/** Signs a short-lived HS256 JWT; returns it with its lifetime in milliseconds. */
export async function signAccessToken(claims: AccessTokenClaims, key: Uint8Array, ttlMs: number): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(new Date(Date.now() + ttlMs))
    .sign(key);
}

/** Verifies signature, issuer and expiry; TOKEN_EXPIRED and INVALID_TOKEN are told apart. */
export async function verifyAccessToken(token: string, key: Uint8Array): Promise<AccessTokenClaims> {
  return (await verifyAccessTokenWithExpiry(token, key)).claims;
}

/** Like verifyAccessToken, also returning when the token expires (epoch milliseconds). */
export async function verifyAccessTokenWithExpiry(token: string, key: Uint8Array): Promise<{ claims: AccessTokenClaims; expiresAt: number }> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
    const shareToken = payload.id === null && typeof payload.share === 'string';
    if ((typeof payload.id !== 'string' && !shareToken) || typeof payload.session !== 'string' || typeof payload.exp !== 'number') throw new InvalidTokenError();
    const claims: AccessTokenClaims = {
      id: typeof payload.id === 'string' ? payload.id : null,
      role: typeof payload.role === 'string' ? payload.role : null,
      app_access: payload.app_access === true,
      admin_access: payload.admin_access === true,
      session: payload.session,
      share: typeof payload.share === 'string' ? payload.share : null,
    };
    return { claims, expiresAt: payload.exp * 1000 };
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new TokenExpiredError();
    if (error instanceof InvalidTokenError) throw error;
    throw new InvalidTokenError();
  }
}
