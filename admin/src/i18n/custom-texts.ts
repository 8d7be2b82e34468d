/**
 * `$t:key` in collection and field names and notes (Directus's convention): the value of `key` in the
 * translations collection for the user's language. The rows are loaded once per sign-in by the
 * preferences provider and kept here, because labels are computed by plain helpers (`fieldLabel`,
 * `collectionLabel`) that run in many places outside React's context; the provider re-renders the app
 * whenever they change, so every label is computed again.
 */

export interface CustomText {
  key: string;
  language: string;
  value: string;
}

let byLanguage = new Map<string, Map<string, string>>();

/** Replaces the known texts (the translations collection's rows). */
export function setCustomTexts(rows: readonly CustomText[]): void {
  const next = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const language = row.language.toLowerCase();
    if (!next.has(language)) next.set(language, new Map());
    next.get(language)!.set(row.key, row.value);
  }
  byLanguage = next;
}

/**
 * `text` itself, or for `$t:key` the key's value in `locale` (then in another variant of its language,
 * e.g. `pt-PT` for `pt-BR`), else the key: a missing translation shows which key it wants.
 */
export function resolveText(text: string, locale: string): string;
export function resolveText(text: string | null | undefined, locale: string): string | null;
export function resolveText(text: string | null | undefined, locale: string): string | null {
  if (typeof text !== 'string' || !text.startsWith('$t:')) return text ?? null;
  const key = text.slice(3);
  const exact = byLanguage.get(locale.toLowerCase())?.get(key);
  if (exact !== undefined) return exact;
  const base = locale.slice(0, 2).toLowerCase();
  for (const [language, texts] of byLanguage) if (language.slice(0, 2) === base && texts.has(key)) return texts.get(key)!;
  return key;
}
