import type { Locale } from '../app/module.ts';

/** Locales the admin ships, with their names in their own language. */
export const LOCALES: { code: Locale; label: string }[] = [
  { code: 'en-US', label: 'English (US)' },
  { code: 'pt-BR', label: 'Português (Brasil)' },
];

/** The default and fallback locale (SPEC §9). */
export const DEFAULT_LOCALE: Locale = 'en-US';

/** Maps any language tag to a shipped locale: `pt`, `pt-PT`, `pt-BR` → pt-BR; others → en-US. */
export function toLocale(language: string | null | undefined): Locale {
  if (!language) return DEFAULT_LOCALE;
  const exact = LOCALES.find((locale) => locale.code.toLowerCase() === language.toLowerCase());
  if (exact) return exact.code;
  return language.toLowerCase().startsWith('pt') ? 'pt-BR' : DEFAULT_LOCALE;
}

/** The user's language wins over the project's default language. */
export function pickLocale(userLanguage: string | null | undefined, defaultLanguage: string | null | undefined): Locale {
  return toLocale(userLanguage || defaultLanguage);
}
