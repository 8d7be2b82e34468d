import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../cli/errors.ts';
import { workerCount } from '../../../cli/start-cluster.ts';
import { loadConfig } from '../../../server/config/index.ts';

const SECRET = 'a-secret-that-is-long-enough-for-tessera-1234';
const both = loadConfig({ SECRET, DB_URL: 'postgres://127.0.0.1/db', REDIS_URL: 'redis://127.0.0.1:6379' });
const noRedis = loadConfig({ SECRET, DB_URL: 'postgres://127.0.0.1/db' });
const embedded = loadConfig({ SECRET, REDIS_URL: 'redis://127.0.0.1:6379' });

describe('workerCount', () => {
  it('serves from one process below 4 cores and from every core from 4 up', () => {
    expect(workerCount(undefined, both, 2)).toEqual({ count: 1, note: null });
    expect(workerCount(undefined, both, 3)).toEqual({ count: 1, note: null });
    expect(workerCount(undefined, both, 4)).toEqual({ count: 4, note: null });
    expect(workerCount(undefined, both, 16)).toEqual({ count: 16, note: null });
  });

  it('falls back to one process by default when Redis or PostgreSQL is missing, saying why', () => {
    expect(workerCount(undefined, noRedis, 8)).toMatchObject({ count: 1, note: expect.stringMatching(/REDIS_URL/) });
    expect(workerCount(undefined, embedded, 8)).toMatchObject({ count: 1, note: expect.stringMatching(/DB_URL/) });
  });

  it('takes --workers as given, and refuses several without Redis or PostgreSQL', () => {
    expect(workerCount(1, noRedis, 8)).toEqual({ count: 1, note: null });
    expect(workerCount(3, both, 2)).toEqual({ count: 3, note: null });
    expect(() => workerCount(2, noRedis, 8)).toThrow(UsageError);
    expect(() => workerCount(2, noRedis, 8)).toThrow(/--workers 2 needs REDIS_URL/);
    expect(() => workerCount(2, embedded, 8)).toThrow(/needs DB_URL/);
  });

  it('refuses a count that is not a whole number from 1 to 256', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 257]) expect(() => workerCount(bad, both, 8)).toThrow(/whole number from 1 to 256/);
  });
});
