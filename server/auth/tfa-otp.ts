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

/** True when `otp` is the current code for `secret` (± one step). Malformed input is simply wrong. */
export async function verifyTotp(secret: string, otp: string): Promise<boolean> {
  if (!OTP_PATTERN.test(otp) || !isTotpSecret(secret)) return false;
  try {
    return (await verify({ secret, token: otp, epochTolerance: EPOCH_TOLERANCE_SECONDS })).valid;
  } catch {
    return false;
  }
}
