import { describe, expect, it } from 'vitest';
import { enUS } from '../../../admin/src/i18n/en-US.ts';
import { pickLocale, toLocale } from '../../../admin/src/i18n/locales.ts';
import { numberToWords } from '../../../admin/src/i18n/number-words.ts';
import { ptBR } from '../../../admin/src/i18n/pt-BR.ts';
import { mergeCatalogues, translateFrom } from '../../../admin/src/i18n/translate.ts';
import { formatPlurals, pluralArguments, pluralForms } from '../../../admin/src/i18n/plural.ts';
import { modules } from '../../../admin/src/modules/index.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('translations', () => {
  const catalogues = [{ name: 'app', messages: { 'en-US': enUS, 'pt-BR': ptBR } }, ...modules.map((module) => ({ name: module.name, messages: module.messages }))];

  it.each(catalogues)('every en-US key of $name has a pt-BR text with the same placeholders', ({ messages }) => {
    const missing = Object.keys(messages['en-US']).filter((key) => !messages['pt-BR'][key]);
    expect(missing).toEqual([]);
    for (const [key, text] of Object.entries(messages['en-US'])) {
      expect([key, placeholders(messages['pt-BR'][key] ?? '')]).toEqual([key, placeholders(text)]);
      expect([key, pluralArguments(messages['pt-BR'][key] ?? '')]).toEqual([key, pluralArguments(text)]);
    }
    expect(Object.keys(messages['pt-BR']).filter((key) => !(key in messages['en-US']))).toEqual([]);
  });

  it('falls back to en-US, then to the default text, then to the key; fills placeholders', () => {
    const catalogue = mergeCatalogues({ 'en-US': { a: 'Hello {{name}}', b: 'Only English' }, 'pt-BR': { a: 'Olá {{name}}' } });
    expect(translateFrom(catalogue, 'pt-BR', 'a', { name: 'Ana' })).toBe('Olá Ana');
    expect(translateFrom(catalogue, 'pt-BR', 'b')).toBe('Only English');
    expect(translateFrom(catalogue, 'pt-BR', 'c', undefined, 'Default')).toBe('Default');
    expect(translateFrom(catalogue, 'pt-BR', 'd')).toBe('d');
  });

  it('chooses ICU plural forms by the locale\'s CLDR rules, exact matches first, # as the number in the locale', () => {
    const text = '{count, plural, =0 {No items} one {# item} other {# items}} in {{place}}';
    expect(formatPlurals(text, { count: 0 }, 'en-US')).toBe('No items in {{place}}');
    expect(formatPlurals(text, { count: 1 }, 'en-US')).toBe('1 item in {{place}}');
    expect(formatPlurals(text, { count: 1234 }, 'en-US')).toBe('1,234 items in {{place}}');
    expect(formatPlurals('{count, plural, one {# item} other {# itens}}', { count: 1234 }, 'pt-BR')).toBe('1.234 itens');
    // Portuguese (CLDR): 0 and 1 are "one"; English: 0 is "other".
    expect(formatPlurals('{count, plural, one {# item} other {# itens}}', { count: 0 }, 'pt-BR')).toBe('0 item');
    expect(formatPlurals('{count, plural, one {# item} other {# items}}', { count: 0 }, 'en-US')).toBe('0 items');
    expect(formatPlurals('{n, plural, one {a {nested} one} other {many}}', { n: 1 }, 'en-US')).toBe('a {nested} one');
    // Without a number the argument stays as written.
    expect(formatPlurals(text, {}, 'en-US')).toBe(text);
    const catalogue = mergeCatalogues({ 'en-US': { d: '{count, plural, one {Delete # item?} other {Delete # items?}} Sure, {{name}}?' } });
    expect(translateFrom(catalogue, 'en-US', 'd', { count: 1, name: 'Ana' })).toBe('Delete 1 item? Sure, Ana?');
    expect(pluralForms('{count, plural, one {# item} other {# items}}')).toEqual(['{{count}} item', '{{count}} items']);
  });

  it('has no "(s)" plurals left and every plural block in both languages parses', () => {
    for (const { messages } of catalogues) {
      for (const [locale, texts] of Object.entries(messages)) {
        for (const [key, text] of Object.entries(texts)) {
          expect([key, /\w\(s\)|\(ões\)/.test(text)]).toEqual([key, false]);
          if (text.includes(', plural,')) expect([locale, key, translateFrom(mergeCatalogues({ [locale]: { [key]: text } }), locale as 'en-US', key, { count: 2, total: 2, shown: 1 }).includes('plural')]).toEqual([locale, key, false]);
        }
      }
    }
  });

  it('prefers the user language over the project default and maps any Portuguese to pt-BR', () => {
    expect(pickLocale('pt-BR', 'en-US')).toBe('pt-BR');
    expect(pickLocale(null, 'pt-PT')).toBe('pt-BR');
    expect(pickLocale(null, null)).toBe('en-US');
    expect(toLocale('de-DE')).toBe('en-US');
  });
});

describe('numbers in words (n2words)', () => {
  it('writes English and Brazilian Portuguese', () => {
    expect(numberToWords(1234, 'en-US')).toBe('one thousand two hundred thirty-four');
    expect(numberToWords(16, 'pt-BR')).toBe('dezesseis');
    expect(numberToWords(17, 'pt-BR')).toBe('dezessete');
    expect(numberToWords(19, 'pt-BR')).toBe('dezenove');
    expect(numberToWords(1_000_000_000, 'pt-BR')).toBe('um bilhão');
    expect(numberToWords(42, 'pt-BR')).toBe('quarenta e dois');
  });
});
