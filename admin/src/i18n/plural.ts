/**
 * ICU plural arguments in catalogue texts: `{count, plural, =0 {No items} one {# item} other {# items}}`.
 * The plural category comes from the platform's CLDR rules (`Intl.PluralRules`), `#` is the number written
 * in the locale (`Intl.NumberFormat`). Only `plural` is supported; the rest of the text keeps `{{name}}`.
 */

const ARGUMENT = /\{\s*(\w+)\s*,\s*plural\s*,/g;

/** The text between a `{` at `open` and its matching `}` (exclusive), and the index of that `}`; null if unbalanced. */
function balanced(text: string, open: number): { inner: string; close: number } | null {
  let depth = 0;
  for (let at = open; at < text.length; at += 1) {
    if (text[at] === '{') depth += 1;
    else if (text[at] === '}') {
      depth -= 1;
      if (depth === 0) return { inner: text.slice(open + 1, at), close: at };
    }
  }
  return null;
}

/** The `selector {message}` pairs of a plural argument's body. */
function branches(body: string): Map<string, string> {
  const found = new Map<string, string>();
  let at = 0;
  while (at < body.length) {
    const selector = /^\s*(=\d+(?:\.\d+)?|zero|one|two|few|many|other)\s*\{/.exec(body.slice(at));
    if (!selector) break;
    const open = at + selector[0].length - 1;
    const message = balanced(body, open);
    if (!message) break;
    found.set(selector[1]!, message.inner);
    at = message.close + 1;
  }
  return found;
}

/** Replaces each `{name, plural, …}` whose value is a number with the branch CLDR picks for `locale`. */
export function formatPlurals(text: string, values: Record<string, unknown>, locale: string): string {
  let result = '';
  let from = 0;
  for (const match of text.matchAll(ARGUMENT)) {
    const start = match.index;
    if (start < from) continue;
    const whole = balanced(text, start);
    const raw = values[match[1]!];
    const count = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    if (!whole || Number.isNaN(count)) continue;
    const options = branches(whole.inner.slice(match[0].length - 1));
    const chosen = options.get(`=${count}`) ?? options.get(new Intl.PluralRules(locale).select(count)) ?? options.get('other') ?? '';
    result += text.slice(from, start) + chosen.replace(/#/g, new Intl.NumberFormat(locale).format(count));
    from = whole.close + 1;
  }
  return result + text.slice(from);
}

/**
 * Every form a text can take: one text per branch of its (first) plural argument, `#` written as
 * `{{name}}`. A text without one is its only form. (Tests compare forms across languages and look for them on screen.)
 */
export function pluralForms(text: string): string[] {
  const match = new RegExp(ARGUMENT.source).exec(text);
  if (!match) return [text];
  const whole = balanced(text, match.index);
  if (!whole) return [text];
  const before = text.slice(0, match.index);
  const after = text.slice(whole.close + 1);
  return [...branches(whole.inner.slice(match[0].length - 1)).values()].flatMap((branch) => pluralForms(`${before}${branch.replace(/#/g, `{{${match[1]}}}`)}${after}`));
}

/** The names of a text's plural arguments (`{count, plural, …}` → `count`). */
export function pluralArguments(text: string): string[] {
  return [...text.matchAll(ARGUMENT)].map((match) => match[1]!);
}
