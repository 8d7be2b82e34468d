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

/**
 * Signs a short-lived HS256 JWT. `iat` carries milliseconds (a NumericDate may have a fraction, RFC 7519
 * §2): a token is compared with its user's access stamp (docs/auth.md "Ending access"), and a token signed
 * in the same second as the stamp, before or after it, must be told apart.
 */
export async function signAccessToken(claims: AccessTokenClaims, key: Uint8Array, ttlMs: number): Promise<string> {
  const now = Date.now();
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setIssuedAt(now / 1000)
    .setExpirationTime(new Date(now + ttlMs))
    .sign(key);
}

/** Verifies signature, issuer and expiry; TOKEN_EXPIRED and INVALID_TOKEN are told apart. */
export async function verifyAccessToken(token: string, key: Uint8Array): Promise<AccessTokenClaims> {
  return (await verifyAccessTokenWithExpiry(token, key)).claims;
}

/** A verified access token: its claims, when it expires and when it was issued (epoch milliseconds). */
export interface VerifiedToken {
  claims: AccessTokenClaims;
  expiresAt: number;
  /** 0 for a token without `iat` (none of ours). */
  issuedAt: number;
}

/** Like verifyAccessToken, also returning when the token expires and when it was issued. */
export async function verifyAccessTokenWithExpiry(token: string, key: Uint8Array): Promise<VerifiedToken> {
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
    return { claims, expiresAt: payload.exp * 1000, issuedAt: typeof payload.iat === 'number' ? Math.round(payload.iat * 1000) : 0 };
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new TokenExpiredError();
    if (error instanceof InvalidTokenError) throw error;
    throw new InvalidTokenError();
  }
}
