import type { I18nProvider } from '@refinedev/core';
import type { Locale, Messages } from '../app/module.ts';
import { toLocale } from '../i18n/locales.ts';
import { mergeCatalogues, translateFrom, type Catalogue } from '../i18n/translate.ts';

/**
 * Refine's i18n provider over the merged catalogue (built-in texts, the modules' texts, then overrides
 * from the translations collection for the current locale).
 */
export function createI18nProvider(catalogue: Catalogue, locale: Locale, overrides: Messages, changeLocale: (locale: Locale) => unknown): I18nProvider {
  const effective = mergeCatalogues(catalogue, { [locale]: overrides });
  return {
    translate: (key, options, defaultMessage) => translateFrom(effective, locale, key, options, defaultMessage),
    changeLocale: (next) => changeLocale(toLocale(next)),
    getLocale: () => locale,
  };
}
