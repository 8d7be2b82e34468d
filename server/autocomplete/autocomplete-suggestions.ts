/**
 * The pure half of the `input-autocomplete-api` route: the address a field's `url` option names for a
 * typed value, and the suggestions read out of the answer with Directus's `resultsPath`, `textPath` and
 * `valuePath` options (dot paths; empty means the value itself).
 */

/** One suggestion: the text shown and the value stored. */
export interface Suggestion {
  text: string;
  value: string;
}

/** At most this many suggestions are returned, whatever the remote sends. */
export const MAX_SUGGESTIONS = 50;

/** The `url` option with each `{{value}}` (spaces allowed inside the braces) replaced by the typed text, URL-encoded. */
export function suggestionUrl(template: string, value: string): string {
  return template.replace(/\{\{\s*value\s*\}\}/g, encodeURIComponent(value));
}

/** The value at a dot path (`result.predictions`, `items.0.name`); the value itself for an empty path. */
export function valueAtPath(data: unknown, path: string | undefined): unknown {
  if (!path) return data;
  let current = data;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const asText = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null);

/** The suggestions of a parsed answer: each entry of the list at `resultsPath`, its text and value read by their paths. */
export function readSuggestions(data: unknown, paths: { resultsPath?: string; textPath?: string; valuePath?: string }): Suggestion[] {
  const results = valueAtPath(data, paths.resultsPath);
  if (!Array.isArray(results)) return [];
  const suggestions: Suggestion[] = [];
  for (const result of results) {
    const value = asText(valueAtPath(result, paths.valuePath)) ?? asText(valueAtPath(result, paths.textPath));
    if (value === null) continue;
    suggestions.push({ text: asText(valueAtPath(result, paths.textPath)) ?? value, value });
    if (suggestions.length === MAX_SUGGESTIONS) break;
  }
  return suggestions;
}
