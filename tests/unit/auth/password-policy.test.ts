import { describe, expect, it } from 'vitest';
import { passwordPolicyViolation } from '../../../server/auth/password-policy.ts';

describe('passwordPolicyViolation (SPEC §9)', () => {
  it('none accepts anything, even an empty password', () => {
    expect(passwordPolicyViolation('none', '')).toBeNull();
  });

  it('weak counts characters, not bytes: 8 accepted, 7 refused', () => {
    expect(passwordPolicyViolation('weak', 'ääääääää')).toBeNull();
    expect(passwordPolicyViolation('weak', '1234567')).toBe("Password doesn't meet the weak password policy: it needs at least 8 characters.");
  });

  it.each([
    ['Str0ng!pass', null],
    ['Ünïcode9#x', null],
    ['str0ng!pass', 'no uppercase'],
    ['STR0NG!PASS', 'no lowercase'],
    ['Strong!pass', 'no digit'],
    ['Str0ngpass1', 'no special character'],
    ['Str0ng! pass', 'whitespace'],
    ['Str0ng!\tpass', 'a tab'],
    ['S0!x', 'too short'],
  ])('strong: %s (%s)', (password, reason) => {
    const violation = passwordPolicyViolation('strong', password);
    if (reason === null) expect(violation).toBeNull();
    else expect(violation).toMatch(/^Password doesn't meet the strong password policy: it needs at least 8 characters with a digit/);
  });
});
