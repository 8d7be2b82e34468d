import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { CONFIG_CWD as CWD, configError } from '../../helpers/config-error.ts';

const problems = (env: Record<string, string>): string[] => configError(env).problems;

describe('HASH_MEMORY_COST, HASH_TIME_COST, HASH_PARALLELISM', () => {
  it("default to argon2's own cost: 64 MiB, 3 passes, 4 lanes", () => {
    expect(loadConfig({}, CWD).auth.hash).toEqual({ memoryCost: 65_536, timeCost: 3, parallelism: 4 });
  });

  it('are read as whole numbers', () => {
    expect(loadConfig({ HASH_MEMORY_COST: '19456', HASH_TIME_COST: '2', HASH_PARALLELISM: '1' }, CWD).auth.hash).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  });

  it('refuses what argon2 cannot take, naming the variable', () => {
    expect(problems({ HASH_MEMORY_COST: 'lots' })).toEqual(['HASH_MEMORY_COST: must be a number of KiB (got "lots")']);
    expect(problems({ HASH_MEMORY_COST: '1.5' })[0]).toMatch(/^HASH_MEMORY_COST: must be a whole number of KiB/);
    expect(problems({ HASH_TIME_COST: '0' })[0]).toMatch(/^HASH_TIME_COST: must be at least 1/);
    expect(problems({ HASH_PARALLELISM: '65' })[0]).toMatch(/^HASH_PARALLELISM: must be at most 64/);
    // argon2 needs 8 KiB per lane.
    expect(problems({ HASH_MEMORY_COST: '16', HASH_PARALLELISM: '4' })).toEqual(['HASH_MEMORY_COST: must be at least 8 KiB per lane of HASH_PARALLELISM (32 for 4)']);
  });
});
