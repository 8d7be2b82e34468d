/** The pure half of the key-value interface: an object as rows of key and value, and back. */

type Pairs = Record<string, unknown>;
/** One row of the key-value interface. */
export interface KeyValueRow {
  key: string;
  value: string;
}

/** The rows of a stored object: each property a row, non-text values as their JSON. */
export function toRows(value: unknown): KeyValueRow[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Pairs).map(([key, entry]) => ({ key, value: typeof entry === 'string' ? entry : JSON.stringify(entry) }));
}

/** The object the rows stand for: rows without a key are left out, and of two rows with one key the last wins. */
export function toObject(rows: readonly KeyValueRow[], before: unknown): Pairs {
  const previous = before && typeof before === 'object' && !Array.isArray(before) ? (before as Pairs) : {};
  const result: Pairs = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (key === '') continue;
    // A value left as it was keeps its type (a number stays a number); an edited one is text.
    const kept = Object.hasOwn(previous, key) && toRows({ [key]: previous[key] })[0]!.value === row.value;
    result[key] = kept ? previous[key] : row.value;
  }
  return result;
}
