import path from 'node:path';
import { expect } from 'vitest';
import { loadConfig } from '../../server/config/index.ts';
import { ConfigError } from '../../server/errors.ts';

/** The project folder configuration tests load from. */
export const CONFIG_CWD = path.resolve('/srv/tessera');

/** Runs loadConfig and returns the ConfigError it throws (fails the test if it does not). */
export function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, CONFIG_CWD);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}
