import path from 'node:path';
import { loadConfig } from '../../server/config/index.ts';
import { ConfigError } from '../../server/errors.ts';
import { thrown } from './thrown.ts';

/** The project folder configuration tests load from. */
export const CONFIG_CWD = path.resolve('/srv/tessera');

/** Runs loadConfig and returns the ConfigError it throws (fails the test if it does not). */
export function configError(env: Record<string, string>): ConfigError {
  return thrown(() => loadConfig(env, CONFIG_CWD), ConfigError);
}
