/** The translations collection as a grid: one row per key, one column per language. Pure logic. */

export interface TranslationRecord {
  id: string;
  key: string;
  language: string;
  value: string;
}

export interface TranslationRow {
  key: string;
  /** By language: the stored row. */
  values: Record<string, { id: string; value: string }>;
}

/** Rows by key (sorted), and the languages to show: the shipped locales, then any other in use. */
export function toGrid(records: readonly TranslationRecord[], shipped: readonly string[]): { rows: TranslationRow[]; languages: string[] } {
  const byKey = new Map<string, TranslationRow>();
  const extra = new Set<string>();
  for (const record of records) {
    if (!byKey.has(record.key)) byKey.set(record.key, { key: record.key, values: {} });
    byKey.get(record.key)!.values[record.language] = { id: record.id, value: record.value };
    if (!shipped.includes(record.language)) extra.add(record.language);
  }
  return {
    rows: [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key)),
    languages: [...shipped, ...[...extra].sort()],
  };
}

/** The request one edited cell needs: a new row, a changed value, or removal when emptied; null when nothing changed. */
export function cellChange(current: { id: string; value: string } | undefined, next: string): { kind: 'create' } | { kind: 'update'; id: string } | { kind: 'delete'; id: string } | null {
  const text = next.trim() === '' ? '' : next;
  if (!current) return text === '' ? null : { kind: 'create' };
  if (text === '') return { kind: 'delete', id: current.id };
  return text === current.value ? null : { kind: 'update', id: current.id };
}

/** Rows whose key or any value contains `term` (case-insensitive). */
export function searchGrid(rows: readonly TranslationRow[], term: string): TranslationRow[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return [...rows];
  return rows.filter((row) => row.key.toLowerCase().includes(needle) || Object.values(row.values).some((cell) => cell.value.toLowerCase().includes(needle)));
}
