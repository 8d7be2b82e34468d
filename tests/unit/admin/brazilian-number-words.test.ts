import { describe, expect, it } from 'vitest';
import { numberToWords, safeNumberToWords } from '../../../admin/src/i18n/number-words.ts';

/** Spellings as Brazilian grammars and cheque-writing guides give them (short scale, "e" before a round last group). */
const BRAZILIAN: [number | string | bigint, string][] = [
  [0, 'zero'],
  [14, 'catorze'],
  [16, 'dezesseis'],
  [17, 'dezessete'],
  [19, 'dezenove'],
  [100, 'cem'],
  [101, 'cento e um'],
  [1_000, 'mil'],
  [1_001, 'mil e um'],
  [1_100, 'mil e cem'],
  [1_234, 'mil duzentos e trinta e quatro'],
  [2_016, 'dois mil e dezesseis'],
  [100_000, 'cem mil'],
  [101_000, 'cento e um mil'],
  [1_000_000, 'um milhão'],
  [1_000_001, 'um milhão e um'],
  [1_200_000, 'um milhão e duzentos mil'],
  [1_234_567, 'um milhão duzentos e trinta e quatro mil quinhentos e sessenta e sete'],
  [2_000_000, 'dois milhões'],
  [21_000_000, 'vinte e um milhões'],
  [1_000_000_000, 'um bilhão'],
  [2_500_000_000, 'dois bilhões e quinhentos milhões'],
  [2_001_000_000, 'dois bilhões e um milhão'],
  [1_000_100_000, 'um bilhão e cem mil'],
  [17_000_000_019, 'dezessete bilhões e dezenove'],
  [123_456_789_012, 'cento e vinte e três bilhões quatrocentos e cinquenta e seis milhões setecentos e oitenta e nove mil e doze'],
  [1_000_000_000_000, 'um trilhão'],
  [3_000_000_000_000, 'três trilhões'],
  [1_000_000_000_000_000, 'um quatrilhão'],
  [10n ** 18n, 'um quintilhão'],
  ['5000000000', 'cinco bilhões'],
  [-5, 'menos cinco'],
  [-2_000_000_000, 'menos dois bilhões'],
  [1.5, 'um vírgula cinco'],
  ['16.17', 'dezesseis vírgula dezessete'],
];

describe('numbers in Brazilian Portuguese words', () => {
  it.each(BRAZILIAN)('%s → %s', (value, words) => {
    expect(numberToWords(value, 'pt-BR')).toBe(words);
  });

  it('never uses the European long-scale names', () => {
    for (const value of [1e9, 25e8, 1e12, 7e15, 123456789012345]) {
      expect(numberToWords(value, 'pt-BR')).not.toMatch(/mil milh|bili[ãõ]|trili[ãõ]|dezasse|dezanove/);
    }
  });

  it('keeps English on n2words en-US, and gives nothing for values that are not numbers', () => {
    expect(numberToWords(2_500_000_000, 'en-US')).toBe('two billion five hundred million');
    expect(safeNumberToWords('abc', 'pt-BR')).toBe('');
    expect(safeNumberToWords(10n ** 40n, 'pt-BR')).toBe('');
    expect(safeNumberToWords(null, 'pt-BR')).toBe('');
  });
});
