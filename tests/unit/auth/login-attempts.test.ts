import { describe, expect, it } from 'vitest';
import { redisLoginAttempts } from '../../../server/auth/login-attempts.ts';
import { createLogger } from '../../../server/logger.ts';

describe('redis login attempts when Redis cannot be reached', () => {
  it('neither throws nor counts, so sign-in keeps working', async () => {
    // Port 9 (discard) on localhost: nothing listens there.
    const attempts = redisLoginAttempts('redis://127.0.0.1:9', createLogger({ level: 'silent', style: 'raw' }));
    try {
      expect(await attempts.fail('user-1')).toBe(0);
      await expect(attempts.reset('user-1')).resolves.toBeUndefined();
    } finally {
      await attempts.close();
    }
  });
});
