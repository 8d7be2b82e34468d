import { valueAt } from '../query/in-memory-filter.ts';
import type { FlowData } from './flow-types.ts';

const WHOLE = /^\{\{\s*([^{}]+?)\s*\}\}$/;
const ANY = /\{\{\s*([^{}]+?)\s*\}\}/g;

/**
 * Fills `{{ path }}` placeholders from the flow's data. A string that is one whole placeholder keeps the
 * value's type (an object stays an object); placeholders inside text are stringified (objects as JSON).
 */
export function render(value: unknown, data: FlowData): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return valueAt(data, whole[1]!);
    return value.replace(ANY, (_match, path: string) => {
      const found = valueAt(data, path);
      if (found === undefined || found === null) return '';
      return typeof found === 'object' ? JSON.stringify(found) : String(found);
    });
  }
  if (Array.isArray(value)) return value.map((entry) => render(entry, data));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, render(entry, data)]));
  return value;
}
