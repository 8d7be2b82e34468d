import { afterAll, describe, expect, it } from 'vitest';

describe('a suite whose afterAll throws', () => {
  afterAll(() => {
    throw new Error('teardown failed');
  });
  it('passes', () => expect(1).toBe(1));
});
