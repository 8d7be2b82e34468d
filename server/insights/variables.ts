import type { Filter } from '../query/types.ts';
import { ownValue } from '../own-keys.ts';

/** Values of the dashboard's variables by name, as the caller sent them (or the panels' defaults). */
export type Variables = Record<string, unknown>;

const WHOLE = /^\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}$/;
const INSIDE = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;

/** Marks a condition whose value is a variable nobody set: the condition is left out rather than matching nothing. */
const UNSET = Symbol('unset variable');

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
}

function substitute(value: unknown, variables: Variables): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    const variable = (name: string) => ownValue(variables, name);
    if (whole) return isSet(variable(whole[1]!)) ? variable(whole[1]!) : UNSET;
    return value.replace(INSIDE, (_, name: string) => (isSet(variable(name)) ? String(variable(name)) : ''));
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => substitute(item, variables));
    const logical = value.length > 0 && value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item));
    // A list of filters (`_and`, `_or`) loses the parts left empty; a list of values (`_in`) with an unset variable is unset.
    if (!logical) return items.includes(UNSET) ? UNSET : items;
    const kept = items.filter((item) => item !== UNSET);
    return kept.length === 0 ? UNSET : kept;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    const kept = entries.map(([key, child]) => [key, substitute(child, variables)] as const).filter(([, child]) => child !== UNSET);
    return entries.length > 0 && kept.length === 0 ? UNSET : Object.fromEntries(kept);
  }
  return value;
}

/**
 * The filter with every `"{{ name }}"` replaced by the variable's value (a whole-string reference keeps the
 * value's type: numbers stay numbers, a multiple relational variable becomes a list). A condition on a variable
 * that is not set is dropped, so an empty selector shows everything instead of nothing.
 */
export function applyVariables(filter: Filter | undefined | null, variables: Variables): Filter | undefined {
  if (!filter) return undefined;
  const result = substitute(filter, variables);
  return result === UNSET ? undefined : (result as Filter);
}
