import type { Kysely } from 'kysely';
import { InvalidOtpError } from '../errors.ts';
import { deriveKey } from './secret-keys.ts';
import { totpStep } from './tfa-otp.ts';
import { claimTotpStep, restartTotpSteps } from './tfa-replay.ts';
import { decryptTfaSecret } from './tfa-secret-crypto.ts';

/** Said when TFA is on and the sign-in carried no `otp`, so a client knows to ask for the code. */
export const OTP_REQUIRED_MESSAGE = '"otp" is required: two-factor authentication is enabled for this user.';

/**
 * True when `otp` is a current code of the user's stored (encrypted) secret that has not been used
 * before: its time step is recorded, so the same code (or an older one) is refused next time on every
 * instance. A secret that no longer decrypts (SECRET changed) matches nothing; an administrator can clear
 * it so the user sets TFA up again.
 */
export async function acceptStoredOtp(db: Kysely<any>, secret: string, userId: string, storedTfaSecret: string, otp: string): Promise<boolean> {
  const plain = decryptTfaSecret(storedTfaSecret, deriveKey(secret, 'tfa-secret'), userId);
  if (plain === null) return false;
  return acceptOtp(db, userId, plain, otp);
}

/** True when `otp` is a current, unused code of the plain `secret`; records its step for `userId`. */
async function acceptOtp(db: Kysely<any>, userId: string, secret: string, otp: string): Promise<boolean> {
  const step = await totpStep(secret, otp);
  return step !== null && claimTotpStep(db, userId, step);
}

/**
 * True when `otp` is a current code of a secret being enabled. Codes of the user's previous secret say
 * nothing about this one, so its step starts the record over; the code cannot then sign in again.
 */
export async function acceptFirstOtp(db: Kysely<any>, userId: string, secret: string, otp: string): Promise<boolean> {
  const step = await totpStep(secret, otp);
  if (step === null) return false;
  await restartTotpSteps(db, userId, step);
  return true;
}

/** Throws INVALID_OTP when TFA is on and `otp` is missing; the caller checks a present one with acceptStoredOtp. */
export function assertOtpPresent(otp: string | undefined | null): asserts otp is string {
  if (!otp) throw new InvalidOtpError(OTP_REQUIRED_MESSAGE, { field: 'otp' });
}
