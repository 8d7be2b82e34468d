import { sameValue } from './diff.ts';
import type { SnapshotDocument } from './types.ts';

/** One difference in the form of the `deep-diff` package, which Directus's diff lists: new, deleted or edited. */
export interface DeepDiffEntry {
  kind: 'N' | 'D' | 'E';
  path?: string[];
  lhs?: unknown;
  rhs?: unknown;
}

/** The schema part of a diff as Directus answers `POST /schema/diff`: one entry per collection, field and relation that differs. */
export interface DirectusSchemaDiff {
  collections: Array<{ collection: string; diff: DeepDiffEntry[] }>;
  fields: Array<{ collection: string; field: string; diff: DeepDiffEntry[] }>;
  relations: Array<{ collection: string; field: string; related_collection: string | null; diff: DeepDiffEntry[] }>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The differences from `lhs` to `rhs`, descending into objects (lists are compared whole). */
function deepDiff(lhs: unknown, rhs: unknown, path: string[] = []): DeepDiffEntry[] {
  if (sameValue(lhs, rhs)) return [];
  const at = path.length > 0 ? { path } : {};
  if (isPlainObject(lhs) && isPlainObject(rhs)) {
    const keys = [...new Set([...Object.keys(lhs), ...Object.keys(rhs)])].sort();
    return keys.flatMap((key): DeepDiffEntry[] => {
      if (!(key in lhs)) return [{ kind: 'N', path: [...path, key], rhs: rhs[key] }];
      if (!(key in rhs)) return [{ kind: 'D', path: [...path, key], lhs: lhs[key] }];
      return deepDiff(lhs[key], rhs[key], [...path, key]);
    });
  }
  return [{ kind: 'E', ...at, lhs, rhs }];
}

/** Pairs the items of two lists by key and diffs each pair: an item only in `desired` is new, only in `current` deleted. */
function pairwise<T>(current: readonly T[], desired: readonly T[], key: (item: T) => string): Array<{ item: T; diff: DeepDiffEntry[] }> {
  const before = new Map(current.map((item) => [key(item), item]));
  const after = new Map(desired.map((item) => [key(item), item]));
  const out: Array<{ item: T; diff: DeepDiffEntry[] }> = [];
  for (const [name, item] of after) {
    const existing = before.get(name);
    const diff = existing === undefined ? [{ kind: 'N' as const, rhs: item }] : deepDiff(existing, item);
    if (diff.length > 0) out.push({ item, diff });
  }
  for (const [name, item] of before) {
    if (!after.has(name)) out.push({ item, diff: [{ kind: 'D', lhs: item }] });
  }
  return out;
}

/**
 * The schema differences from `current` to `desired` in Directus's shape. Unlike Tessera's plan (which
 * creates a new collection's fields with it), every field of a new or deleted collection is listed, as
 * Directus lists them; values are the display copies (secrets as `${env:…}` references).
 */
export function directusSchemaDiff(current: SnapshotDocument, desired: SnapshotDocument): DirectusSchemaDiff {
  const fieldKey = (item: { collection: string; field: string }) => `${item.collection}.${item.field}`;
  return {
    collections: pairwise(current.collections, desired.collections, (item) => item.collection).map(({ item, diff }) => ({ collection: item.collection, diff })),
    fields: pairwise(current.fields, desired.fields, fieldKey).map(({ item, diff }) => ({ collection: item.collection, field: item.field, diff })),
    relations: pairwise(current.relations, desired.relations, fieldKey).map(({ item, diff }) => ({
      collection: item.collection,
      field: item.field,
      related_collection: item.related_collection,
      diff,
    })),
  };
}
