import { isSecretKeyName } from '../secret-key-names.ts';

/** A copy with values under secret-looking keys replaced, for the run log. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, isSecretKeyName(key) && entry !== null && typeof entry !== 'object' ? '**********' : maskSecrets(entry)]));
  }
  return value;
}
