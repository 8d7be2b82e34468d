/**
 * Parsing and checking the JSON an administrator types into rule editors (item rules, validation,
 * presets, asset preset transforms). Answers message keys so screens translate them.
 */

/** Filter operators of the query language (docs/query.md). */
export const FILTER_OPERATORS = new Set([
  '_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_in', '_nin', '_null', '_nnull', '_empty', '_nempty',
  '_contains', '_ncontains', '_icontains', '_regex', '_starts_with', '_istarts_with', '_nstarts_with',
  '_ends_with', '_iends_with', '_nends_with', '_between', '_nbetween', '_some', '_none',
  '_nicontains', '_nistarts_with', '_niends_with',
]);

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*(:[A-Za-z_][A-Za-z0-9_]*)?$/;
const FUNCTION_CALL = /^(year|month|week|day|weekday|hour|minute|second|count)\([A-Za-z_][A-Za-z0-9_]*\)$/;

/** The outcome of parsing: a value, or a message key and the path where it went wrong. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string; path?: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses optional JSON object text: blank is null; anything but an object is an error. */
export function parseJsonObject(text: string | null | undefined): ParseResult<Record<string, unknown> | null> {
  if (!text || text.trim() === '') return { ok: true, value: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'shared.json.invalid' };
  }
  if (!isPlainObject(value)) return { ok: false, error: 'shared.json.notObject' };
  return { ok: true, value: Object.keys(value).length > 0 ? value : null };
}

/**
 * Checks a filter's shape: logical groups, field paths and known operators; the server checks that the
 * fields exist. `underField` is true inside a field's condition, where operators belong.
 */
export function checkFilter(filter: unknown, path = '', underField = false): ParseResult<true> {
  if (!isPlainObject(filter)) return { ok: false, error: 'shared.filter.notObject', path };
  if (Object.keys(filter).length === 0 && path !== '') return { ok: false, error: 'shared.filter.empty', path };
  for (const [key, value] of Object.entries(filter)) {
    const here = path ? `${path}.${key}` : key;
    let result: ParseResult<true> = { ok: true, value: true };
    if (key === '_and' || key === '_or') {
      if (!Array.isArray(value) || value.length === 0) return { ok: false, error: 'shared.filter.logicalList', path: here };
      for (const [index, part] of value.entries()) {
        result = checkFilter(part, `${here}[${index}]`);
        if (!result.ok) return result;
      }
    } else if (key.startsWith('_')) {
      if (!FILTER_OPERATORS.has(key)) return { ok: false, error: 'shared.filter.unknownOperator', path: here };
      if (!underField) return { ok: false, error: 'shared.filter.operatorWithoutField', path: here };
      if (key === '_some' || key === '_none') result = checkFilter(value, here);
    } else {
      if (!FIELD_NAME.test(key) && !FUNCTION_CALL.test(key)) return { ok: false, error: 'shared.filter.badField', path: here };
      result = checkFilter(value, here, true);
    }
    if (!result.ok) return result;
  }
  return { ok: true, value: true };
}

/** Parses optional filter JSON text: blank is null; invalid JSON or a malformed filter is an error. */
export function parseFilter(text: string | null | undefined): ParseResult<Record<string, unknown> | null> {
  const parsed = parseJsonObject(text);
  if (!parsed.ok || parsed.value === null) return parsed;
  const checked = checkFilter(parsed.value);
  return checked.ok ? parsed : checked;
}

/** Pretty JSON for an editor; null and empty objects show as blank. */
export function toJsonText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isPlainObject(value) && Object.keys(value).length === 0) return '';
  return JSON.stringify(value, null, 2);
}
