import { lazyModule } from '../lazy-module.ts';

// argon2 is a native addon: loaded with the first password hashed or checked, not with the server.
const loadArgon2 = lazyModule(async () => (await import('argon2')).default);

/** argon2id's cost (HASH_MEMORY_COST in KiB, HASH_TIME_COST, HASH_PARALLELISM); a hash records its own, so changing it never breaks a stored one. */
export interface HashCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** Hashes a password with argon2id at `cost` (stored inside the hash). */
export async function hashPassword(password: string, cost: HashCost): Promise<string> {
  const argon2 = await loadArgon2();
  return argon2.hash(password, { type: argon2.argon2id, memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: cost.parallelism });
}

/** Whether `hash` was made at another cost than `cost` (argon2 reads the cost stored in the hash); false for a hash it cannot read. */
export async function madeAtOtherCost(hash: string, cost: HashCost): Promise<boolean> {
  const argon2 = await loadArgon2();
  try {
    return argon2.needsRehash(hash, { memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: cost.parallelism });
  } catch {
    return false;
  }
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

/** One dummy hash per cost: the check it stands in for is made against hashes of the configured cost. */
const dummyHashes = new Map<string, Promise<string>>();

/**
 * Spends the same time as a real verification at `cost`; used when the e-mail is unknown so response timing
 * does not reveal which accounts exist.
 */
export async function verifyAgainstDummy(password: string, cost: HashCost): Promise<false> {
  const key = `${cost.memoryCost}/${cost.timeCost}/${cost.parallelism}`;
  let dummy = dummyHashes.get(key);
  if (!dummy) dummyHashes.set(key, (dummy = hashPassword('tessera-dummy-password-for-timing', cost)));
  await verifyPassword(await dummy, password);
  return false;
}
