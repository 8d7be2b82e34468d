import type { Kysely } from 'kysely';
import { assertPasswordPolicy } from '../../auth/password-policy.ts';
import { hashStaticToken, looksLikeJwt, MIN_STATIC_TOKEN_LENGTH } from '../../auth/static-token.ts';
import { InvalidPayloadError } from '../../errors.ts';
import { CONCEALED_PLACEHOLDER } from './prepare-payload.ts';

/**
 * Credential rules for writes to tessera_users, applied before values become columns:
 * - `token` (a static token) is stored as its SHA-256, so it is looked up by equality on the unique index
 *   and a database leak yields no usable tokens;
 * - `tfa_secret` can only be cleared here (turning two-factor off); it is set through /users/me/tfa,
 *   which encrypts it.
 * Returns the payload to store; `concealed` is the placeholder that means "unchanged".
 */
export async function applyUserCredentialRules(payload: Record<string, unknown>, concealed: string): Promise<Record<string, unknown>> {
  const result = { ...payload };
  const { token, tfa_secret: tfaSecret } = payload;
  if (typeof token === 'string' && token !== concealed) {
    if (token.length < MIN_STATIC_TOKEN_LENGTH) {
      throw new InvalidPayloadError(`"token" must be at least ${MIN_STATIC_TOKEN_LENGTH} characters long, so it cannot be guessed.`, { field: 'token' });
    }
    if (looksLikeJwt(token)) throw new InvalidPayloadError('"token" must not have the shape of an access token (three parts separated by dots).', { field: 'token' });
    result.token = hashStaticToken(token);
  }
  if (tfaSecret !== undefined && tfaSecret !== null && tfaSecret !== concealed) {
    throw new InvalidPayloadError('"tfa_secret" can only be cleared (null) here; set up two-factor authentication through /users/me/tfa/generate and /users/me/tfa/enable.', { field: 'tfa_secret' });
  }
  return result;
}

/** A value that is already an argon2 hash: administrators may import one as is (no plaintext to check). */
const ARGON2_HASH = /^\$argon2(id|i|d)\$/;

/**
 * settings.auth_password_policy (SPEC §9) for a password written to tessera_users, wherever it comes from
 * (API, /users/me, CLI). Only administrators' pre-hashed imports skip it.
 */
export async function assertUserPasswordPolicy(db: Kysely<any>, payload: Record<string, unknown>, trusted: boolean): Promise<void> {
  const { password } = payload;
  if (typeof password !== 'string' || password === CONCEALED_PLACEHOLDER || (trusted && ARGON2_HASH.test(password))) return;
  await assertPasswordPolicy(db, password);
}
