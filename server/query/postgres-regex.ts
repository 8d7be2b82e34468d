/**
 * Why PostgreSQL would refuse a pattern JavaScript accepts, or null. PostgreSQL's advanced regular
 * expressions (ARE) differ from JavaScript's: no named groups or `\k<name>`, no `\p{…}` classes, repetition
 * counts of at most 255, and a backslash before a letter or digit must be one of its known escapes.
 * Checked before the statement runs, so the client gets a 400 naming the field, not a database error.
 */
export function postgresRegexProblem(pattern: string): string | null {
  let inBracket = false;
  let groups = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (inBracket && char === ']') {
      inBracket = false;
    } else if (inBracket && char === '[' && /^\[[:.=]/.test(pattern.slice(i))) {
      // [:alpha:], [.x.], [=x=] inside a bracket expression: skip to their end.
      const end = pattern.indexOf(`${pattern[i + 1]}]`, i + 2);
      if (end > 0) i = end + 1;
    } else if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return 'it ends with a lone backslash';
      if (/[A-Za-z0-9]/.test(next) && !KNOWN_ESCAPES.has(next)) return `PostgreSQL has no "\\${next}" escape`;
      // Outside brackets \1-\9 is a back reference, and PostgreSQL refuses one to a group not yet opened.
      if (!inBracket && /[1-9]/.test(next) && !/[0-9]/.test(pattern[i + 2] ?? '') && Number(next) > groups) return `"\\${next}" refers to a group that does not exist`;
      i++;
    } else if (inBracket) {
      continue;
    } else if (char === '[') {
      inBracket = true;
      // A `]` (after an optional `^`) right at the start is a literal member.
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (char === '(' && pattern[i + 1] !== '?') {
      groups++;
    } else if (char === '(') {
      const kind = pattern.slice(i + 2, i + 4);
      if (!['=', '!', ':'].includes(pattern[i + 2] ?? '') && kind !== '<=' && kind !== '<!') return 'PostgreSQL has no named groups or inline flags here; use (...) or (?:...)';
    } else if (char === '{') {
      const bound = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (bound && (Number(bound[1]) > MAX_REPEAT || (bound[3] !== undefined && bound[3] !== '' && Number(bound[3]) > MAX_REPEAT))) {
        return `repetition counts can be at most ${MAX_REPEAT}`;
      }
    }
  }
  return null;
}

/** RE_DUP_MAX of PostgreSQL's regex engine. */
const MAX_REPEAT = 255;

/** Escapes of PostgreSQL's ARE that start with a letter or digit (character entries, classes, constraints, back references). */
const KNOWN_ESCAPES = new Set([...'abBcdDefmMnrsStuUvwWxyYZA', ...'0123456789']);
