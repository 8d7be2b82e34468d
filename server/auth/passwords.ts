import argon2 from 'argon2';

/** Hashes a password with argon2id (parameters are argon2's defaults, stored inside the hash). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** True when `password` matches `hash`; false for malformed hashes instead of throwing. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification; used when the e-mail is unknown so response timing
 * does not reveal which accounts exist.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('tessera-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
