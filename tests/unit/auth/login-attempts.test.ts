import { describe, expect, it } from 'vitest';
import { redisLoginAttempts } from '../../../server/auth/login-attempts.ts';
import { createLogger } from '../../../server/logger.ts';

describe('redis login attempts when Redis cannot be reached', () => {
  it('counts in this instance at once instead of waiting for Redis or not counting', async () => {
    // Port 9 (discard) on localhost: nothing listens there.
    const attempts = redisLoginAttempts('redis://127.0.0.1:9', createLogger({ level: 'silent', style: 'raw' }));
    try {
      const started = Date.now();
      expect(await attempts.fail('user-1')).toBe(1);
      expect(await attempts.fail('user-1')).toBe(2);
      await expect(attempts.reset('user-1')).resolves.toBeUndefined();
      expect(await attempts.fail('user-1')).toBe(1);
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      await attempts.close();
    }
  });
});
