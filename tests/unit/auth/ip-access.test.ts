import { describe, expect, it } from 'vitest';
import { assertIpAllowed, isIpAllowed, parseIpAccess } from '../../../server/auth/ip-access.ts';
import { InvalidIpError } from '../../../server/errors.ts';

describe('role ip_access', () => {
  it('an empty or missing list allows every address', () => {
    expect(isIpAllowed(null, '203.0.113.9')).toBe(true);
    expect(isIpAllowed('', null)).toBe(true);
    expect(isIpAllowed(' , ', '::1')).toBe(true);
  });

  it('parses the stored comma-separated list and arrays alike', () => {
    expect(parseIpAccess(' 10.0.0.1, ::1 ,,')).toEqual(['10.0.0.1', '::1']);
    expect(parseIpAccess(['10.0.0.1', ' '])).toEqual(['10.0.0.1']);
  });

  it('matches exact addresses, IPv4-mapped IPv6 as IPv4, and CIDR ranges', () => {
    expect(isIpAllowed('10.0.0.1,::1', '10.0.0.1')).toBe(true);
    expect(isIpAllowed('10.0.0.1', '::ffff:10.0.0.1')).toBe(true);
    expect(isIpAllowed('::1', '::1')).toBe(true);
    expect(isIpAllowed('10.0.0.1', '10.0.0.2')).toBe(false);
    expect(isIpAllowed('192.168.0.0/16', '192.168.44.5')).toBe(true);
    expect(isIpAllowed('192.168.0.0/16', '192.169.0.1')).toBe(false);
    expect(isIpAllowed('2001:db8::/32', '2001:db8:1::7')).toBe(true);
  });

  it('refuses callers without a usable address when a list is set, and ignores malformed entries', () => {
    expect(isIpAllowed('10.0.0.1', null)).toBe(false);
    expect(isIpAllowed('10.0.0.1', 'not-an-ip')).toBe(false);
    expect(isIpAllowed('garbage,10.0.0.0/99,10.0.0.1', '10.0.0.1')).toBe(true);
    expect(isIpAllowed('garbage', '10.0.0.1')).toBe(false);
  });

  it('throws 401 INVALID_IP', () => {
    expect(() => assertIpAllowed('10.0.0.1', '10.0.0.2')).toThrow(InvalidIpError);
    try {
      assertIpAllowed('10.0.0.1', '10.0.0.2');
    } catch (error) {
      expect((error as InvalidIpError).status).toBe(401);
      expect((error as InvalidIpError).code).toBe('INVALID_IP');
    }
  });
});
