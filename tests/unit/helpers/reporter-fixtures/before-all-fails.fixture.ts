import { beforeAll, describe, expect, it } from 'vitest';

describe('a suite whose beforeAll throws', () => {
  beforeAll(() => {
    throw new Error('setup failed');
  });
  it('never runs', () => expect(1).toBe(1));
  it('never runs either', () => expect(1).toBe(1));
});

it('passes outside the suite', () => expect(1).toBe(1));
