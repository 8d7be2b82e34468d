import { InvalidOtpError } from '../errors.ts';
import { deriveKey } from './secret-keys.ts';
import { verifyTotp } from './tfa-otp.ts';
import { decryptTfaSecret } from './tfa-secret-crypto.ts';

/** Said when TFA is on and the sign-in carried no `otp`, so a client knows to ask for the code. */
export const OTP_REQUIRED_MESSAGE = '"otp" is required: two-factor authentication is enabled for this user.';

/**
 * True when `otp` is the current code of the user's stored (encrypted) secret. A secret that no longer
 * decrypts (SECRET changed) matches nothing; an administrator can clear it so the user sets TFA up again.
 */
export async function verifyStoredOtp(secret: string, userId: string, storedTfaSecret: string, otp: string): Promise<boolean> {
  const plain = decryptTfaSecret(storedTfaSecret, deriveKey(secret, 'tfa-secret'), userId);
  return plain !== null && verifyTotp(plain, otp);
}

/** Throws INVALID_OTP when TFA is on and `otp` is missing; the caller checks a present one with verifyStoredOtp. */
export function assertOtpPresent(otp: string | undefined | null): asserts otp is string {
  if (!otp) throw new InvalidOtpError(OTP_REQUIRED_MESSAGE, { field: 'otp' });
}
