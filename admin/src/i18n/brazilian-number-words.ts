import { toCardinal as portugueseCardinal } from 'n2words/pt-PT';

/**
 * Brazilian Portuguese cardinals on top of n2words, which ships Portuguese as pt-PT only. The two differ
 * in three teens and in the scale: Portugal counts large numbers on the long scale ("mil milhões",
 * "bilião" = 10^12), Brazil on the short one ("bilhão" = 10^9, "trilhão" = 10^12). So n2words writes each
 * group of three digits (identical in both below a thousand, teens aside) and this module names the
 * groups and joins them the Brazilian way: "dois bilhões e quinhentos milhões".
 */

/** Singular and plural names of 10^3, 10^6, 10^9 … (short scale). */
const SCALE: [singular: string, plural: string][] = [
  ['mil', 'mil'],
  ['milhão', 'milhões'],
  ['bilhão', 'bilhões'],
  ['trilhão', 'trilhões'],
  ['quatrilhão', 'quatrilhões'],
  ['quintilhão', 'quintilhões'],
  ['sextilhão', 'sextilhões'],
  ['septilhão', 'septilhões'],
  ['octilhão', 'octilhões'],
  ['nonilhão', 'nonilhões'],
  ['decilhão', 'decilhões'],
];

const TEENS: [RegExp, string][] = [
  [/\bdezasseis\b/g, 'dezesseis'],
  [/\bdezassete\b/g, 'dezessete'],
  [/\bdezanove\b/g, 'dezenove'],
];

function brazilianTeens(words: string): string {
  return TEENS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), words);
}

/** 1–999 in words (n2words; the same in Brazil and Portugal once the teens are swapped). */
function groupWords(group: number): string {
  return brazilianTeens(portugueseCardinal(group));
}

/** One non-zero group with its scale name: "mil", "dois mil", "um milhão", "quinhentos milhões". */
function namedGroup(group: number, scaleIndex: number): string {
  if (scaleIndex === 0) return groupWords(group);
  if (scaleIndex === 1) return group === 1 ? 'mil' : `${groupWords(group)} mil`;
  const [singular, plural] = SCALE[scaleIndex - 1]!;
  return `${groupWords(group)} ${group === 1 ? singular : plural}`;
}

/** A whole number ≥ 0 in Brazilian words. */
function wholeNumberWords(value: bigint): string {
  if (value === 0n) return 'zero';
  const groups: number[] = [];
  for (let rest = value; rest > 0n; rest /= 1000n) groups.push(Number(rest % 1000n));
  if (groups.length > SCALE.length + 1) throw new RangeError(`${value} is too large to write in words`);
  const parts: { words: string; group: number }[] = [];
  for (let index = groups.length - 1; index >= 0; index--) {
    const group = groups[index]!;
    if (group !== 0) parts.push({ words: namedGroup(group, index), group });
  }
  // "e" joins the last group when it is below a hundred or a round hundred: "mil e cem", "um milhão e
  // duzentos mil", "dois bilhões e quinhentos milhões"; otherwise the groups follow one another.
  return parts
    .map((part, index) => {
      const joinWithE = index > 0 && index === parts.length - 1 && (part.group < 100 || part.group % 100 === 0);
      return index === 0 ? part.words : `${joinWithE ? 'e ' : ''}${part.words}`;
    })
    .join(' ');
}

/** A number (integer or decimal, as number, numeric string or bigint) in Brazilian Portuguese words. */
export function brazilianCardinal(value: number | string | bigint): string {
  const text = typeof value === 'bigint' ? value.toString() : typeof value === 'number' ? numberText(value) : value.trim();
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new TypeError(`Not a number: ${String(value)}`);
  const [, minus, whole, fraction] = match;
  let words = wholeNumberWords(BigInt(whole!));
  // The decimals are read as n2words reads them ("vírgula cinquenta"): take its wording after the comma.
  if (fraction) words += brazilianTeens(portugueseCardinal(`0.${fraction}`).replace(/^zero/, ''));
  return minus && words !== 'zero' ? `menos ${words}` : words;
}

/** A finite number as plain decimal digits (no exponent). */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`Not a finite number: ${value}`);
  if (Number.isInteger(value)) return BigInt(value).toString();
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 100 });
}
