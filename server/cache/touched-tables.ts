/** Words of a statement that may name a table (quoted or bare identifiers). */
const IDENTIFIER = /"((?:[^"]|"")+)"|\b([A-Za-z_][A-Za-z0-9_]*)\b/g;
/** Statement texts already scanned; reads are prepared statements, so the same texts come back. */
const identifiersOf = new Map<string, ReadonlySet<string>>();
const MAX_REMEMBERED = 2_000;

function identifiers(text: string): ReadonlySet<string> {
  const known = identifiersOf.get(text);
  if (known) return known;
  const found = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) found.add(match[1] !== undefined ? match[1].replaceAll('""', '"') : match[2]!);
  if (identifiersOf.size >= MAX_REMEMBERED) identifiersOf.delete(identifiersOf.keys().next().value!);
  identifiersOf.set(text, found);
  return found;
}

/**
 * The collections (of `tables`: a collection's table bears its name) that any of the statements names. A read is
 * tagged with these: whatever it joined, filtered through (permission rules included) or aggregated. A
 * column that happens to share a table's name only adds a tag, which costs a purge, never staleness.
 */
export function collectionsNamed(statements: Iterable<string>, tables: ReadonlySet<string>): Set<string> {
  const collections = new Set<string>();
  for (const text of statements) {
    for (const word of identifiers(text)) {
      if (tables.has(word)) collections.add(word);
    }
  }
  return collections;
}

/** Statements that change rows. */
const ROW_WRITE = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge|copy)\b/i;
/** Statements that change the schema or can change anything (DDL, TRUNCATE, DO blocks, procedure calls). */
const ANY_WRITE = /^\s*(alter|create|drop|truncate|do|call|comment|grant|revoke)\b/i;
/** Writes hidden in a CTE or a function call are judged as writes too. */
const EMBEDDED_WRITE = /\b(insert\s+into|update\s+"?[A-Za-z_]|delete\s+from|add_job)\b/i;

/** What the statements of one request changed: the collections whose rows changed, or everything (`all`). */
export function writesOf(statements: Iterable<string>, tables: ReadonlySet<string> | null): { all: boolean; collections: Set<string> } {
  const writes: string[] = [];
  for (const text of statements) {
    if (ANY_WRITE.test(text)) return { all: true, collections: new Set() };
    if (ROW_WRITE.test(text) || EMBEDDED_WRITE.test(text)) writes.push(text);
  }
  // Without the schema (the database just failed) the written collections cannot be told apart.
  if (tables === null) return { all: writes.length > 0, collections: new Set() };
  return { all: false, collections: collectionsNamed(writes, tables) };
}
