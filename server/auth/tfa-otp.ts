import { generateSecret, generateURI, verify } from 'otplib';

/** A TOTP code: six digits (the authenticator-app default otplib uses). */
const OTP_PATTERN = /^\d{6}$/;
/** Base32 secret as otplib generates it (20 random bytes → 32 characters). */
const SECRET_PATTERN = /^[A-Z2-7]{26,103}=*$/;
/** Codes from the previous and next 30-second step still count: phone clocks drift. */
const EPOCH_TOLERANCE_SECONDS = 30;

/** A new random TOTP secret (base32). */
export function newTotpSecret(): string {
  return generateSecret();
}

/** True when `secret` looks like a base32 TOTP secret of at least 16 bytes. */
export function isTotpSecret(secret: string): boolean {
  return SECRET_PATTERN.test(secret);
}

/** The otpauth:// address an authenticator app scans, labelled with the project and the user's e-mail. */
export function totpUrl(secret: string, issuer: string, label: string): string {
  return generateURI({ issuer, label, secret });
}

/**
 * The RFC 6238 time step `otp` is the code of (the current one, or the previous or next: phone clocks
 * drift), or null when it matches none. Malformed input is simply wrong.
 */
export async function totpStep(secret: string, otp: string): Promise<number | null> {
  if (!OTP_PATTERN.test(otp) || !isTotpSecret(secret)) return null;
  try {
    const result = await verify({ secret, token: otp, epochTolerance: EPOCH_TOLERANCE_SECONDS });
    // otplib's result type covers HOTP too; a TOTP match carries the step it matched.
    return result.valid && 'timeStep' in result && typeof result.timeStep === 'number' ? result.timeStep : null;
  } catch {
    return null;
  }
}

/** True when `otp` is the current code for `secret` (± one step). Says nothing about earlier use. */
export async function verifyTotp(secret: string, otp: string): Promise<boolean> {
  return (await totpStep(secret, otp)) !== null;
}
