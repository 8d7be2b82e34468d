import { hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey, hkdf, KeyDerivationError } from '../../../server/auth/secret-keys.ts';

function failure(run: () => unknown): KeyDerivationError {
  try {
    run();
  } catch (error) {
    if (error instanceof KeyDerivationError) return error;
    throw error;
  }
  throw new Error('expected a KeyDerivationError');
}

describe('hkdf limits (SPEC §5)', () => {
  it('derives what node:crypto derives within the limits', () => {
    expect(Buffer.from(hkdf('sha256', 'secret', 'salt', 'info', 42))).toEqual(Buffer.from(hkdfSync('sha256', 'secret', 'salt', 'info', 42)));
  });

  it('needs at least one byte of input key material', () => {
    for (const empty of ['', new Uint8Array(0)]) {
      const error = failure(() => hkdf('sha256', empty, 'salt', 'info', 32));
      expect(error.limit).toBe('input-key-material');
      expect(error.message).toBe('Key derivation needs at least one byte of input key material.');
    }
    expect(hkdf('sha256', new Uint8Array(1), 'salt', 'info', 32)).toHaveLength(32);
  });

  it('accepts info of exactly 1024 bytes and refuses 1025, counting bytes not characters', () => {
    expect(hkdf('sha256', 'k', 'salt', 'x'.repeat(1024), 32)).toHaveLength(32);
    const error = failure(() => hkdf('sha256', 'k', 'salt', 'x'.repeat(1025), 32));
    expect(error.limit).toBe('info-length');
    expect(error.message).toBe('Key derivation info must be at most 1024 bytes; got 1025.');
    expect(failure(() => hkdf('sha256', 'k', 'salt', 'é'.repeat(513), 32)).message).toContain('got 1026');
  });

  it('needs a positive integer output length of at most 255 × the hash length', () => {
    expect(hkdf('sha256', 'k', 'salt', 'info', 255 * 32)).toHaveLength(8160);
    expect(hkdf('sha512', 'k', 'salt', 'info', 255 * 64)).toHaveLength(16320);
    for (const length of [0, -1, 1.5, Number.NaN, 8161]) {
      const error = failure(() => hkdf('sha256', 'k', 'salt', 'info', length));
      expect(error.limit).toBe('output-length');
      expect(error.message).toContain('must be a positive integer no larger than 8160 bytes (255 × the 32-byte sha256 length)');
    }
  });

  it('gives each purpose its own key from one SECRET', () => {
    const secret = 'test-secret-that-is-long-enough';
    expect(Buffer.from(deriveKey(secret, 'tfa-secret'))).not.toEqual(Buffer.from(deriveKey(secret, 'access-token')));
    expect(failure(() => deriveKey('', 'tfa-secret')).limit).toBe('input-key-material');
  });
});
