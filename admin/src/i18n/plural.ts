/**
 * ICU plural blocks in catalogue texts: `{count, plural, =0 {No items} one {# item} other {# items}}`.
 * The branch is chosen by an exact `=n` match, then by the locale's plural category (Intl.PluralRules);
 * `#` in the branch is the number, formatted for the locale. Pure logic.
 */

const PLURAL_START = /\{\s*(\w+)\s*,\s*plural\s*,/;

/** The text between the brace at `open` and its matching closing brace, and the index after it. */
function braced(text: string, open: number): { inner: string; end: number } | null {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    if (text[index] === '{') depth += 1;
    else if (text[index] === '}') {
      depth -= 1;
      if (depth === 0) return { inner: text.slice(open + 1, index), end: index + 1 };
    }
  }
  return null;
}

/** A plural block's branches (`=0`, `one`, `other` …) and the index after the block's closing brace. */
function branches(text: string, from: number): { options: Map<string, string>; end: number } | null {
  const options = new Map<string, string>();
  let index = from;
  for (;;) {
    while (/\s/.test(text[index] ?? '')) index += 1;
    if (text[index] === '}') return { options, end: index + 1 };
    const selector = /^[=\w]+/.exec(text.slice(index))?.[0];
    if (!selector) return null;
    index += selector.length;
    while (/\s/.test(text[index] ?? '')) index += 1;
    if (text[index] !== '{') return null;
    const block = braced(text, index);
    if (!block) return null;
    options.set(selector, block.inner);
    index = block.end;
  }
}

/** Replaces every plural block of `text` with the branch `values` select; blocks it cannot read stay as written. */
export function resolvePlurals(text: string, values: Record<string, unknown>, locale: string): string {
  if (!text.includes('plural')) return text;
  let result = '';
  let last = 0;
  const start = new RegExp(PLURAL_START.source, 'g');
  for (let match = start.exec(text); match; match = start.exec(text)) {
    const parsed = branches(text, match.index + match[0].length);
    const count = Number(values[match[1]!]);
    if (!parsed || !(match[1]! in values) || Number.isNaN(count)) continue;
    const category = new Intl.PluralRules(locale).select(count);
    const chosen = parsed.options.get(`=${count}`) ?? parsed.options.get(category) ?? parsed.options.get('other') ?? '';
    result += text.slice(last, match.index) + resolvePlurals(chosen, values, locale).replace(/#/g, new Intl.NumberFormat(locale).format(count));
    last = parsed.end;
    start.lastIndex = parsed.end;
  }
  return result + text.slice(last);
}
