/** Profile fields whose name says they hold a secret: never stored, whatever the provider sends. */
const SECRET_FIELD = /(password|passwd|pwd|secret|token|credential|private|hash|nonce|code_verifier)/i;

/** Longest text kept per field; longer values (photos, certificates) are dropped. */
const MAX_VALUE_LENGTH = 2_000;

/**
 * What users.auth_data keeps of a profile: its fields minus secrets (passwords, tokens, keys) and
 * binary or oversized values. The API never returns auth_data; this keeps a leak of the column harmless too.
 */
export function profileWithoutSecrets(claims: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(claims)) {
    if (SECRET_FIELD.test(name)) continue;
    const safe = plainValue(value);
    if (safe !== undefined) kept[name] = safe;
  }
  return kept;
}

function plainValue(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value === 'string') return value.length <= MAX_VALUE_LENGTH ? value : undefined;
  if (depth > 3 || Buffer.isBuffer(value) || value instanceof Uint8Array) return undefined;
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => plainValue(item, depth + 1)).filter((item) => item !== undefined);
  if (typeof value === 'object') {
    const nested: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_FIELD.test(name)) continue;
      const safe = plainValue(inner, depth + 1);
      if (safe !== undefined) nested[name] = safe;
    }
    return nested;
  }
  return undefined;
}
