/**
 * Preloaded into a bench server (`NODE_OPTIONS=--import=<this file>`, see bench/compare.ts --statements):
 * counts the SQL statements every pg client of the process sends, by text. On SIGUSR2 it writes the
 * counts since the last signal to STATEMENT_COUNT_FILE as JSON and starts over, so the bench reads the
 * statements of exactly one measured window. Works on any commit: it patches pg, not Tessera.
 */
import { writeFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.STATEMENT_COUNT_FILE;
let counts = new Map<string, number>();

const original = pg.Client.prototype.query;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
pg.Client.prototype.query = function countingQuery(this: pg.Client, ...args: any[]): any {
  const first = args[0];
  const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : null;
  if (text !== null) {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 300);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (original as any).apply(this, args);
} as typeof original;

if (file) {
  process.on('SIGUSR2', () => {
    writeFileSync(file, JSON.stringify(Object.fromEntries(counts)));
    counts = new Map();
  });
}
