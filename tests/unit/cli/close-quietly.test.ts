import { describe, expect, it } from 'vitest';
import { closeQuietly } from '../../../cli/database-context.ts';

describe('closeQuietly', () => {
  it('returns when the close finishes, and swallows its failure', async () => {
    let closed = false;
    await closeQuietly(new Promise((resolve) => setTimeout(() => resolve((closed = true)), 5)));
    expect(closed).toBe(true);
    await expect(closeQuietly(Promise.reject(new Error('pool already closed')))).resolves.toBeUndefined();
  });

  it('stops waiting for a close that never ends', async () => {
    const started = Date.now();
    await closeQuietly(new Promise(() => {}), 50);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
