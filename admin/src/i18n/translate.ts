import type { Locale, Messages } from '../app/module.ts';
import { DEFAULT_LOCALE } from './locales.ts';
import { formatPlurals } from './plural.ts';

/** Fills `{{name}}` placeholders from `values`; unknown placeholders stay as they are. */
export function interpolate(text: string, values?: Record<string, unknown>): string {
  if (!values) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A catalogue per locale, built from the built-in messages, the modules' messages and overrides. */
export type Catalogue = Record<Locale, Messages>;

/** Merges catalogues left to right (later wins). */
export function mergeCatalogues(...catalogues: Partial<Catalogue>[]): Catalogue {
  const merged: Catalogue = { 'en-US': {}, 'pt-BR': {} };
  for (const catalogue of catalogues) {
    for (const [locale, messages] of Object.entries(catalogue) as [Locale, Messages | undefined][]) {
      merged[locale] = { ...merged[locale], ...messages };
    }
  }
  return merged;
}

/**
 * Looks a key up in the locale, then in en-US, then uses the caller's default text, then the key itself;
 * `options` fill `{{name}}` placeholders and choose ICU plural forms (`{count, plural, one {…} other {…}}`).
 */
export function translateFrom(catalogue: Catalogue, locale: Locale, key: string, options?: unknown, defaultMessage?: string): string {
  const values = options && typeof options === 'object' ? (options as Record<string, unknown>) : undefined;
  const fallback = typeof options === 'string' ? options : defaultMessage;
  const text = catalogue[locale][key] ?? catalogue[DEFAULT_LOCALE][key] ?? fallback ?? key;
  return interpolate(values ? formatPlurals(text, values, locale) : text, values);
}
