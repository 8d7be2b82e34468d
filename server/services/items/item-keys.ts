import { ForbiddenError } from '../../errors.ts';
import { BoundKeys } from '../../query/bound-keys.ts';
import type { Filter, Query } from '../../query/types.ts';
import type { CollectionOverview } from '../../schema/overview.ts';

/** A primary-key value. */
export type ItemKey = string | number;

/**
 * Keys from URLs arrive as strings: integer keys become numbers, and a key that cannot exist for the
 * key's type (a word for an integer, a malformed UUID) is FORBIDDEN like any missing item.
 */
export function normalizeKeys(overview: CollectionOverview, keys: ItemKey[]): ItemKey[] {
  const type = overview.fields[overview.primary]!.type;
  return keys.map((key) => {
    const text = String(key);
    if (type === 'integer' || type === 'bigInteger') {
      if (!/^-?\d{1,19}$/.test(text)) throw new ForbiddenError();
      return type === 'integer' ? Number(text) : text;
    }
    if (type === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) throw new ForbiddenError();
    return key;
  });
}

/**
 * `query` narrowed to the listed items (their keys normalised), at most `limit` of them (-1: all). The keys
 * are bound when the statement runs (BoundKeys), so reads of other items reuse its compiled form; a text
 * key starting with `$` stays a literal list, where the filter language reads it as a dynamic variable.
 */
export function queryByKeys(overview: CollectionOverview, rawKeys: ItemKey[], query: Query, limit: number): Query {
  const keys = normalizeKeys(overview, rawKeys);
  const literal = keys.some((key) => typeof key === 'string' && key.startsWith('$'));
  const byKey: Filter = { [overview.primary]: { _in: literal ? keys : new BoundKeys(keys) } };
  return { ...query, filter: query.filter ? { _and: [byKey, query.filter] } : byKey, limit, offset: 0, page: undefined, after: undefined, nextCursor: undefined };
}

/** The keys without repeats (`1` and `'1'` are one key), in their first order. */
export function uniqueKeys(keys: ItemKey[]): ItemKey[] {
  const seen = new Set<string>();
  return keys.filter((key) => !seen.has(String(key)) && seen.add(String(key)));
}

/**
 * Each of the unique `normalized` keys as the caller sent it (its first spelling): Directus announces a
 * delete with these, the strings of a path or GraphQL's ids, the numbers of a JSON body.
 */
export function keysAsSent(rawKeys: ItemKey[], normalized: ItemKey[]): ItemKey[] {
  const sent = new Map<string, ItemKey>();
  normalized.forEach((key, index) => {
    if (!sent.has(String(key))) sent.set(String(key), rawKeys[index]!);
  });
  return [...sent.values()];
}
