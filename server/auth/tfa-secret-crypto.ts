import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Marks the stored format, so a later change of scheme can tell old rows apart. */
const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts a TOTP secret for tessera_users.tfa_secret with AES-256-GCM. The user id is bound in as
 * additional data, so a ciphertext copied onto another user's row does not decrypt.
 * Stored as `v1:<base64url(iv | tag | ciphertext)>` (well under the column's 255 characters).
 */
export function encryptTfaSecret(secret: string, key: Uint8Array, userId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** Decrypts what encryptTfaSecret stored; null when the value is not ours or was tampered with. */
export function decryptTfaSecret(stored: string, key: Uint8Array, userId: string): string | null {
  const [format, payload] = stored.split(':');
  if (format !== FORMAT || !payload) return null;
  const bytes = Buffer.from(payload, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
