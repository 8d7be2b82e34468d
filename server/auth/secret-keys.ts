import { hkdfSync } from 'node:crypto';

/** Purposes a key can be derived for; each gets an independent key from the one SECRET. */
export type KeyPurpose = 'access-token' | 'tfa-secret' | 'cookie' | 'email-token' | 'oidc-request' | 'saml-relay-state';

/** Output size of the hashes HKDF is used with, in bytes. */
const HASH_LENGTH = { sha256: 32, sha384: 48, sha512: 64 } as const;
/** A hash HKDF can run with. */
export type HkdfHash = keyof typeof HASH_LENGTH;

/** Longest `info` accepted, in bytes (SPEC §5). */
export const MAX_HKDF_INFO_BYTES = 1024;

/** A key-derivation request outside SPEC §5's limits; `limit` names which one. */
export class KeyDerivationError extends Error {
  readonly limit: 'input-key-material' | 'info-length' | 'output-length';
  constructor(limit: KeyDerivationError['limit'], message: string) {
    super(message);
    this.name = 'KeyDerivationError';
    this.limit = limit;
  }
}

/**
 * HKDF (RFC 5869) with SPEC §5's limits checked first, so a violation says which limit it broke: at least
 * one byte of input key material, info of at most 1024 bytes, and an output length that is a positive
 * integer no larger than 255 × the hash length.
 */
export function hkdf(hash: HkdfHash, keyMaterial: string | Uint8Array, salt: string | Uint8Array, info: string | Uint8Array, length: number): Uint8Array {
  const ikmBytes = typeof keyMaterial === 'string' ? Buffer.byteLength(keyMaterial) : keyMaterial.byteLength;
  if (ikmBytes < 1) throw new KeyDerivationError('input-key-material', 'Key derivation needs at least one byte of input key material.');
  const infoBytes = typeof info === 'string' ? Buffer.byteLength(info) : info.byteLength;
  if (infoBytes > MAX_HKDF_INFO_BYTES) {
    throw new KeyDerivationError('info-length', `Key derivation info must be at most ${MAX_HKDF_INFO_BYTES} bytes; got ${infoBytes}.`);
  }
  const maxLength = 255 * HASH_LENGTH[hash];
  if (!Number.isInteger(length) || length < 1 || length > maxLength) {
    throw new KeyDerivationError('output-length', `Key derivation output length must be a positive integer no larger than ${maxLength} bytes (255 × the ${HASH_LENGTH[hash]}-byte ${hash} length); got ${length}.`);
  }
  return new Uint8Array(hkdfSync(hash, keyMaterial, salt, info, length));
}

/** Derives a 32-byte key for `purpose` from SECRET with HKDF-SHA-256. */
export function deriveKey(secret: string, purpose: KeyPurpose): Uint8Array {
  return hkdf('sha256', secret, 'tessera', `tessera:${purpose}`, 32);
}

/** SECRET, which every entry point resolves before building services (the CLI generates one in development). */
export function requireSecret(config: { secret: string | null }): string {
  if (!config.secret) throw new Error('SECRET is not set: entry points must resolve it before creating services');
  return config.secret;
}
