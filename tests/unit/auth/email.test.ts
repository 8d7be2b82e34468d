import { describe, expect, it } from 'vitest';
import { normalizeEmail } from '../../../server/auth/email.ts';

describe('normalizeEmail (SPEC §5)', () => {
  it('lowercases and trims', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM \n')).toBe('jane.doe@example.com');
  });

  it('drops anything after a comma in the domain', () => {
    expect(normalizeEmail('a@b.com,c.com')).toBe('a@b.com');
    expect(normalizeEmail('A@B.com , evil.com')).toBe('a@b.com');
  });

  it('leaves an already normal address unchanged', () => {
    expect(normalizeEmail('admin@example.com')).toBe('admin@example.com');
  });

  it('splits on the last @ so a quoted local part keeps its own @', () => {
    expect(normalizeEmail('"a@b"@Example.com')).toBe('"a@b"@example.com');
  });

  it('only lowercases and trims a value without @', () => {
    expect(normalizeEmail(' NotAnEmail ')).toBe('notanemail');
  });
});
