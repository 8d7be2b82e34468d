const SECRET_KEY = /pass(word)?|secret|token|authorization|api[-_]?key|cookie/i;

/** A copy with values under secret-looking keys replaced, for the run log. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, SECRET_KEY.test(key) && entry !== null && typeof entry !== 'object' ? '**********' : maskSecrets(entry)]));
  }
  return value;
}
