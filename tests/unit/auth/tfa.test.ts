import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../../../server/auth/secret-keys.ts';
import { isTotpSecret, newTotpSecret, totpStep, totpUrl, verifyTotp } from '../../../server/auth/tfa-otp.ts';
import { decryptTfaSecret, encryptTfaSecret } from '../../../server/auth/tfa-secret-crypto.ts';
import { memoryLoginAttempts } from '../../../server/auth/login-attempts.ts';

const key = deriveKey('test-secret-that-is-long-enough', 'tfa-secret');

describe('tfa_secret encryption (AES-256-GCM)', () => {
  it('round-trips, never stores the secret in clear, and differs on every call', () => {
    const secret = newTotpSecret();
    const first = encryptTfaSecret(secret, key, 'user-1');
    const second = encryptTfaSecret(secret, key, 'user-1');
    expect(first).toMatch(/^v1:[\w-]+$/);
    expect(first).not.toContain(secret);
    expect(first).not.toBe(second);
    expect(first.length).toBeLessThanOrEqual(255);
    expect(decryptTfaSecret(first, key, 'user-1')).toBe(secret);
  });

  it('refuses another key, another user, tampering and foreign values', () => {
    const stored = encryptTfaSecret(newTotpSecret(), key, 'user-1');
    expect(decryptTfaSecret(stored, deriveKey('another-secret', 'tfa-secret'), 'user-1')).toBeNull();
    expect(decryptTfaSecret(stored, key, 'user-2')).toBeNull();
    const bytes = Buffer.from(stored.slice(3), 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    expect(decryptTfaSecret(`v1:${bytes.toString('base64url')}`, key, 'user-1')).toBeNull();
    expect(decryptTfaSecret('JBSWY3DPEHPK3PXP', key, 'user-1')).toBeNull();
    expect(decryptTfaSecret('v1:', key, 'user-1')).toBeNull();
  });
});

describe('TOTP', () => {
  it('accepts the current code and refuses others and malformed input', async () => {
    const secret = newTotpSecret();
    expect(isTotpSecret(secret)).toBe(true);
    const code = await generate({ secret });
    expect(await verifyTotp(secret, code)).toBe(true);
    expect(await verifyTotp(secret, code === '000000' ? '111111' : '000000')).toBe(false);
    expect(await verifyTotp(secret, '12345')).toBe(false);
    expect(await verifyTotp(secret, 'abcdef')).toBe(false);
    expect(await verifyTotp('not base32!', code)).toBe(false);
  });

  it('builds the otpauth address with the project as issuer and the e-mail as label', () => {
    expect(totpUrl('JR3R6RHC6D5CAW3BJ5DEFF7NXERZDUYO', 'My Project', 'ada@example.com')).toBe(
      'otpauth://totp/My%20Project:ada%40example.com?secret=JR3R6RHC6D5CAW3BJ5DEFF7NXERZDUYO&issuer=My%20Project',
    );
  });
});

describe('memory login attempts', () => {
  it('counts consecutive failures per user, resets, and forgets after a day', async () => {
    let now = 0;
    const attempts = memoryLoginAttempts(() => now);
    expect(await attempts.fail('a')).toBe(1);
    expect(await attempts.fail('a')).toBe(2);
    expect(await attempts.fail('b')).toBe(1);
    await attempts.reset('a');
    expect(await attempts.fail('a')).toBe(1);
    now += 24 * 60 * 60 * 1000 + 1;
    expect(await attempts.fail('a')).toBe(1);
  });
});

describe('totpStep', () => {
  it('names the RFC 6238 step a code belongs to: the current one, or one step either side', async () => {
    const secret = newTotpSecret();
    const now = Math.floor(Date.now() / 1000);
    const step = Math.floor(now / 30);
    // Mid-step epochs, so the answer does not depend on where in the current step the test runs.
    for (const offset of [-1, 0, 1]) {
      const code = await generate({ secret, epoch: (step + offset) * 30 + 15 });
      const found = await totpStep(secret, code);
      // A code can repeat across steps by chance (1 in 10^6); the step found is then one of the matching ones.
      expect([step - 1, step, step + 1]).toContain(found);
      if (found !== step + offset) expect(await generate({ secret, epoch: found! * 30 })).toBe(code);
    }
    expect(await totpStep(secret, await generate({ secret, epoch: (step + 3) * 30 }))).toBeNull();
    expect(await totpStep(secret, 'abcdef')).toBeNull();
  });
});
