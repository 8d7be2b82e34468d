import { lazyModule } from '../lazy-module.ts';

// argon2 is a native addon: loaded with the first password hashed or checked, not with the server.
const loadArgon2 = lazyModule(async () => (await import('argon2')).default);

/** Hashes a password with argon2id (parameters are argon2's defaults, stored inside the hash). */
export async function hashPassword(password: string): Promise<string> {
  const argon2 = await loadArgon2();
  return argon2.hash(password, { type: argon2.argon2id });
}

/** True when `password` matches `hash`; false for malformed hashes instead of throwing. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const argon2 = await loadArgon2();
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
