import { rowKey, type ConfigTable } from './config-tables.ts';
import type { SnapshotRow } from './types.ts';

/** Compares by UTF-16 code units: the same order on every machine, whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rows of a configuration section in key order. */
export function sortRows(table: ConfigTable, rows: SnapshotRow[]): SnapshotRow[] {
  return [...rows].sort((a, b) => compareText(rowKey(table, a), rowKey(table, b)));
}

/** A copy of `value` with every object's keys in sorted order (arrays keep theirs): one spelling per value. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => compareText(a, b));
    return Object.fromEntries(entries.map(([key, item]) => [key, sortKeysDeep(item)]));
  }
  return value;
}

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeysDeep(a)) === JSON.stringify(sortKeysDeep(b));
}
