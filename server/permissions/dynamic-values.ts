import type { Accountability } from '../auth/accountability.ts';

/**
 * `$CURRENT_USER`, `$CURRENT_ROLE` and `$NOW` in a preset or validation value, resolved for the caller
 * (lists element by element); anything else is returned as is. Filters resolve them in SQL instead
 * (server/query/dynamic-values.ts).
 */
export function resolveDynamicValue(value: unknown, accountability: Accountability, now = new Date()): unknown {
  if (Array.isArray(value)) return value.map((entry) => resolveDynamicValue(entry, accountability, now));
  if (value === '$CURRENT_USER') return accountability.user;
  if (value === '$CURRENT_ROLE') return accountability.role;
  if (value === '$NOW') return now.toISOString();
  return value;
}
