import { toCardinal as englishCardinal } from 'n2words/en-US';
import { toCardinal as portugueseCardinal } from 'n2words/pt-PT';
import type { Locale } from '../app/module.ts';

/**
 * n2words 4 ships Portuguese as pt-PT only. Brazilian Portuguese spells three teens differently and uses
 * the short scale for 10^9 and up; these whole-word swaps turn the European wording into the Brazilian one.
 */
const BRAZILIAN_SPELLING: [RegExp, string][] = [
  [/\bdezasseis\b/g, 'dezesseis'],
  [/\bdezassete\b/g, 'dezessete'],
  [/\bdezanove\b/g, 'dezenove'],
  [/\bum mil milhões\b/g, 'um bilhão'],
  [/\bmil milhões\b/g, 'bilhões'],
];

/** A number written out in words in the locale (SPEC §1: number-to-words in English and Portuguese). */
export function numberToWords(value: number | string | bigint, locale: Locale): string {
  if (locale === 'pt-BR') {
    let words = portugueseCardinal(value);
    for (const [pattern, replacement] of BRAZILIAN_SPELLING) words = words.replace(pattern, replacement);
    return words;
  }
  return englishCardinal(value);
}

/** Like numberToWords, but empty for values that are not numbers (instead of throwing). */
export function safeNumberToWords(value: unknown, locale: Locale): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'bigint') return '';
  try {
    return numberToWords(value, locale);
  } catch {
    return '';
  }
}
