type Item = Record<string, unknown>;

/**
 * The translation rows in the order a reader wants them: the user's language first (`userLanguage`, on
 * unless false), then `defaultLanguage`, then the rest as stored. Languages match by code, and a bare
 * language (`pt`) matches a regional one (`pt-BR`) after the exact ones.
 */
export function orderTranslations(rows: readonly Item[], language: (row: Item) => string | null, preferred: readonly (string | undefined)[]): Item[] {
  const wanted = preferred.filter((code): code is string => Boolean(code)).map((code) => code.toLowerCase());
  const rank = (row: Item) => {
    const code = language(row)?.toLowerCase();
    if (!code) return wanted.length * 2;
    const exact = wanted.indexOf(code);
    if (exact >= 0) return exact;
    const loose = wanted.findIndex((entry) => entry.split('-')[0] === code.split('-')[0]);
    return loose >= 0 ? wanted.length + loose : wanted.length * 2;
  };
  return rows.map((row, index) => ({ row, index, rank: rank(row) })).sort((a, b) => a.rank - b.rank || a.index - b.index).map((entry) => entry.row);
}
