import { createHash } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { InvalidTokenError, TokenExpiredError } from '../errors.ts';
import { deriveKey } from './secret-keys.ts';

/** What a mailed token lets its holder do; each purpose is its own JWT audience, so they never mix. */
export type EmailTokenPurpose = 'password-reset' | 'invite' | 'register';

/** The claims of a mailed token. */
export interface EmailTokenClaims {
  /** The user the token is for. */
  userId: string;
  email: string;
  /** Fingerprint of the state the token was issued for (the password hash); null when not bound. */
  fingerprint: string | null;
}

const ISSUER = 'tessera';

/**
 * A short SHA-256 of the user's current password hash. A reset token carries it, so setting a password
 * (with this token or any other way) makes every earlier token worthless: single use without a table.
 */
export function passwordFingerprint(passwordHash: string | null): string {
  return createHash('sha256').update(`tessera:password:${passwordHash ?? ''}`).digest('base64url').slice(0, 22);
}

/** Signs an HS256 JWT for `purpose`, valid for `ttlMs`. */
export async function signEmailToken(secret: string, purpose: EmailTokenPurpose, claims: EmailTokenClaims, ttlMs: number): Promise<string> {
  return new SignJWT({ email: claims.email, ...(claims.fingerprint ? { fp: claims.fingerprint } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(`tessera:${purpose}`)
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(new Date(Date.now() + ttlMs))
    .sign(deriveKey(secret, 'email-token'));
}

/**
 * Verifies a token of `purpose`. Expired: TOKEN_EXPIRED; anything else wrong (tampered, other purpose,
 * malformed): INVALID_TOKEN. Both name the `token` field.
 */
export async function verifyEmailToken(secret: string, purpose: EmailTokenPurpose, token: string): Promise<EmailTokenClaims> {
  try {
    const { payload } = await jwtVerify(token, deriveKey(secret, 'email-token'), { issuer: ISSUER, audience: `tessera:${purpose}`, algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new Error('incomplete token');
    return { userId: payload.sub, email: payload.email, fingerprint: typeof payload.fp === 'string' ? payload.fp : null };
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new TokenExpiredError('The link has expired; ask for a new one.', { field: 'token' });
    throw invalidEmailToken();
  }
}

/** The error for a token that is not (or no longer) valid. */
export function invalidEmailToken(): InvalidTokenError {
  return new InvalidTokenError('The link is invalid or has been used already.', { field: 'token' });
}
