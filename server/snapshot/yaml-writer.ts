/**
 * A fast writer of the YAML `yaml` writes for snapshot files (`stringify(value, { aliasDuplicateObjects:
 * false, lineWidth: 0, indentSeq: true })`), for the values snapshots hold: mappings, sequences, null,
 * booleans, finite numbers and single-line printable ASCII strings. `yaml` builds a node tree first and
 * took ~300 ms of `tessera snapshot` on 50 collections (docs/performance.md, "CLI"); this walks the value
 * once. Anything else (a multi-line or non-ASCII string, one holding `"` that needs quotes, a key of over
 * 1,000 characters, a value that is not JSON) returns null and the caller writes the file with `yaml`, so every file is byte-identical to
 * what `yaml` writes (tests/unit/snapshot/yaml-writer.test.ts compares them).
 */

/** Characters and sequences that keep a string from being written plain (`yaml`'s rule for plain scalars). */
const NEEDS_QUOTES = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
/** A line starting like a document marker: `yaml` writes it in a block or in quotes depending on the indentation. */
const DOCUMENT_MARKER = /^(?:%|---|\.\.\.)/;
/** Only printable ASCII is handled here; `yaml` double-quotes control characters and escapes others. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** Plain strings that YAML 1.2's core schema would read as null, a boolean or a number: `yaml` quotes them. */
const READS_AS_OTHER_TYPE = [
  /^(?:~|[Nn]ull|NULL)$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^[-+]?[0-9]+$/,
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
/** `yaml` writes a longer key as an explicit `? key` entry. */
const MAX_KEY_LENGTH = 1000;

class NotPlain extends Error {}

/**
 * A single-line string: plain when YAML reads it back as the same string, else in double quotes, which for
 * printable ASCII are JSON's (`yaml` picks single quotes for a string holding `"`: left to it).
 */
function writeString(value: string): string {
  if (value === '') return '""';
  if (!PRINTABLE_ASCII.test(value) || DOCUMENT_MARKER.test(value)) throw new NotPlain();
  if (!NEEDS_QUOTES.test(value) && !READS_AS_OTHER_TYPE.some((type) => type.test(value))) return value;
  if (value.includes('"')) throw new NotPlain();
  return JSON.stringify(value);
}

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return writeString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  throw new NotPlain();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A collection value placed after `key:` or `- `: on the next lines at `indent`, or `{}`/`[]` when empty. */
function nested(value: unknown, indent: string, lines: string[], head: string): void {
  if (Array.isArray(value)) {
    if (value.length === 0) lines.push(`${head} []`);
    else {
      lines.push(head);
      sequence(value, indent, lines);
    }
  } else if (isPlainObject(value)) {
    if (Object.keys(value).length === 0) lines.push(`${head} {}`);
    else {
      lines.push(head);
      mapping(value, indent, lines);
    }
  } else {
    lines.push(`${head} ${scalar(value)}`);
  }
}

function mapping(value: Record<string, unknown>, indent: string, lines: string[], firstPrefix = indent): void {
  let prefix = firstPrefix;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined || key.length > MAX_KEY_LENGTH) throw new NotPlain();
    nested(item, `${indent}  `, lines, `${prefix}${writeString(key)}:`);
    prefix = indent;
  }
}

function sequence(value: unknown[], indent: string, lines: string[]): void {
  for (const item of value) {
    if (Array.isArray(item) && item.length > 0) {
      const start = lines.length;
      sequence(item, `${indent}  `, lines);
      lines[start] = `${indent}- ${lines[start]!.slice(indent.length + 2)}`;
    } else if (isPlainObject(item) && Object.keys(item).length > 0) {
      mapping(item, `${indent}  `, lines, `${indent}- `);
    } else if (Array.isArray(item) || isPlainObject(item)) {
      lines.push(`${indent}- ${Array.isArray(item) ? '[]' : '{}'}`);
    } else {
      lines.push(`${indent}- ${scalar(item)}`);
    }
  }
}

/** `value` (a mapping) as `yaml` writes it with the snapshot options, or null when this writer cannot promise the same bytes. */
export function writePlainYaml(value: unknown): string | null {
  if (!isPlainObject(value)) return null;
  if (Object.keys(value).length === 0) return '{}\n';
  const lines: string[] = [];
  try {
    mapping(value, '', lines);
  } catch (error) {
    if (error instanceof NotPlain) return null;
    throw error;
  }
  return `${lines.join('\n')}\n`;
}
