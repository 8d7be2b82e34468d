import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { CONFIG_CWD as CWD, configError } from '../../helpers/config-error.ts';

const problem = (env: Record<string, string>): string => configError(env).message;

describe('CACHE_* variables', () => {
  it('defaults to off, memory, 5 minutes, auto purge, the Directus namespace', () => {
    expect(loadConfig({}, CWD).cache).toEqual({
      enabled: false,
      store: 'memory',
      ttlMs: 300_000,
      autoPurge: true,
      namespace: 'system-cache',
      sMaxAge: null,
      skipAllowed: false,
      maxEntrySize: 1_048_576,
      memoryMaxSize: 67_108_864,
    });
  });

  it('reads durations, flags and numbers', () => {
    const cache = loadConfig({ CACHE_ENABLED: 'true', CACHE_TTL: '30s', CACHE_AUTO_PURGE: 'false', CACHE_CONTROL_S_MAXAGE: '60', CACHE_SKIP_ALLOWED: 'true', CACHE_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }, CWD).cache;
    expect(cache).toMatchObject({ enabled: true, store: 'redis', ttlMs: 30_000, autoPurge: false, sMaxAge: 60, skipAllowed: true });
  });

  it('names the variable at fault', () => {
    expect(problem({ CACHE_ENABLED: 'true', CACHE_STORE: 'redis' })).toContain('CACHE_STORE: redis needs REDIS_URL');
    expect(problem({ CACHE_STORE: 'disk' })).toContain('CACHE_STORE');
    expect(problem({ CACHE_TTL: 'soon' })).toContain('CACHE_TTL');
    expect(problem({ CACHE_NAMESPACE: 'has space' })).toContain('CACHE_NAMESPACE');
  });
});
