import { resolveText } from '../i18n/custom-texts.ts';
import { titleCase } from './navigation.ts';
import type { FieldInfo } from './schema/types.ts';

/** A field's name in the locale (its translations, `$t:key` resolved), or its name in title case. */
export function fieldLabel(field: FieldInfo, locale: string): string {
  const translations = field.meta?.translations ?? [];
  const match = translations.find((entry) => entry.language === locale) ?? translations.find((entry) => entry.language.slice(0, 2) === locale.slice(0, 2));
  return match?.translation ? resolveText(match.translation, locale) : titleCase(field.field);
}
