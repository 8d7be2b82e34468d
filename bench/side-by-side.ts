/** What bench:compare and bench:directus share: the load options, their checking, medians and the printed table. */

/** The options of a side-by-side run (parseArgs), defaults from BENCH_* where the full bench has them. */
export const LOAD_OPTIONS = {
  rounds: { type: 'string', default: '3' },
  duration: { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
  warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '2' },
  connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '10' },
  articles: { type: 'string', default: process.env.BENCH_ARTICLES ?? '10000' },
  authors: { type: 'string', default: process.env.BENCH_AUTHORS ?? '1000' },
} as const;

/** `--name` as a whole number of at least `minimum`, or an error naming the option. */
export function wholeNumber(args: Record<string, unknown>, name: string, minimum: number): number {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`--${name} must be a whole number of at least ${minimum}, got "${String(args[name])}".`);
  return value;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The median of the figures a run measured (a figure is null where /proc could not tell), or null. */
export function medianOf<T>(runs: T[], pick: (run: T) => number | null): number | null {
  const values = runs.map(pick).filter((value): value is number => value !== null);
  return values.length ? median(values) : null;
}

export const fixed = (value: number | null, digits: number) => (value === null ? '?' : value.toFixed(digits));

/** A Markdown table, columns padded (the first left-aligned, the others right-aligned), as lines. */
export function markdownTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((width, i) => (i === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`, ...rows.map(line)];
}
