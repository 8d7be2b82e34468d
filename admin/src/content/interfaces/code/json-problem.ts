/**
 * Where a text stops being JSON. Engines word `JSON.parse` errors differently and V8 often leaves the
 * position out ("Unexpected token '}', … is not valid JSON"), so the code interface finds it itself: a
 * small validator of RFC 8259 that stops at the first character no JSON text could have there.
 */

/** The first place a text is not JSON: its offset, line and column (1-based), and the character there (null at the end). */
export interface JsonProblem {
  offset: number;
  line: number;
  column: number;
  character: string | null;
}

class Stop {
  offset: number;
  constructor(offset: number) {
    this.offset = offset;
  }
}

const LITERALS = ['true', 'false', 'null'];
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

function validate(text: string): void {
  let at = 0;
  const fail = (): never => {
    throw new Stop(at);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at += 1;
  };
  const expect = (character: string) => {
    if (text[at] !== character) fail();
    at += 1;
  };
  const digits = () => {
    const start = at;
    while (at < text.length && text[at]! >= '0' && text[at]! <= '9') at += 1;
    if (at === start) fail();
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (at >= text.length) fail();
      const character = text[at] as string;
      if (character === '"') return void (at += 1);
      if (character < ' ') fail();
      if (character === '\\') {
        at += 1;
        if (text[at] === 'u') {
          at += 1;
          for (let index = 0; index < 4; index += 1, at += 1) if (!/[0-9a-fA-F]/.test(text[at] ?? '')) fail();
          continue;
        }
        if (!ESCAPES.has(text[at] ?? '')) fail();
      }
      at += 1;
    }
  };
  const number = () => {
    if (text[at] === '-') at += 1;
    if (text[at] === '0') at += 1;
    else digits();
    if (text[at] === '.') {
      at += 1;
      digits();
    }
    if (text[at] === 'e' || text[at] === 'E') {
      at += 1;
      if (text[at] === '+' || text[at] === '-') at += 1;
      digits();
    }
  };
  const value = (): void => {
    space();
    const character = text[at];
    if (character === '{') {
      at += 1;
      space();
      if (text[at] === '}') return void (at += 1);
      for (;;) {
        space();
        string();
        space();
        expect(':');
        value();
        space();
        if (text[at] === '}') return void (at += 1);
        expect(',');
      }
    }
    if (character === '[') {
      at += 1;
      space();
      if (text[at] === ']') return void (at += 1);
      for (;;) {
        value();
        space();
        if (text[at] === ']') return void (at += 1);
        expect(',');
      }
    }
    if (character === '"') return string();
    if (character === '-' || (character !== undefined && character >= '0' && character <= '9')) return number();
    // A literal is checked letter by letter, so "tru}" points at the "}".
    const word = LITERALS.find((candidate) => candidate[0] === character) ?? fail();
    for (const letter of word) expect(letter);
  };
  value();
  space();
  if (at < text.length) fail();
}

/** The line and column (1-based) of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Null when the text is JSON (or only white space), else where it stops being JSON. */
export function findJsonProblem(text: string): JsonProblem | null {
  if (text.trim() === '') return null;
  try {
    JSON.parse(text);
    return null;
  } catch {
    // Not JSON: find where.
  }
  try {
    validate(text);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { offset: error.offset, ...lineAndColumn(text, error.offset), character: text[error.offset] ?? null };
  }
  // JSON.parse refused what the validator accepts (not expected): point at the end.
  return { offset: text.length, ...lineAndColumn(text, text.length), character: null };
}
