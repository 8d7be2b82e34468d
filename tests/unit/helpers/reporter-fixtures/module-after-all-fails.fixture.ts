import { afterAll, expect, it } from 'vitest';

afterAll(() => {
  throw new Error('module teardown failed');
});
it('passes', () => expect(1).toBe(1));
