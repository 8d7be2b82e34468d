import { toCardinal as englishCardinal } from 'n2words/en-US';
import type { Locale } from '../app/module.ts';
import { brazilianCardinal } from './brazilian-number-words.ts';

/** A number written out in words in the locale (SPEC §1: number-to-words in English and Portuguese). */
export function numberToWords(value: number | string | bigint, locale: Locale): string {
  return locale === 'pt-BR' ? brazilianCardinal(value) : englishCardinal(value);
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
