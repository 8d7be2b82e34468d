import { hkdfSync } from 'node:crypto';

/** Purposes a key can be derived for; each gets an independent key from the one SECRET. */
export type KeyPurpose = 'access-token' | 'tfa-secret' | 'cookie';

/** Derives a 32-byte key for `purpose` from SECRET with HKDF-SHA-256. */
export function deriveKey(secret: string, purpose: KeyPurpose): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'tessera', `tessera:${purpose}`, 32));
}

/** SECRET, which every entry point resolves before building services (the CLI generates one in development). */
export function requireSecret(config: { secret: string | null }): string {
  if (!config.secret) throw new Error('SECRET is not set: entry points must resolve it before creating services');
  return config.secret;
}
