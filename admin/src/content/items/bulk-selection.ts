import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TesseraFilter } from '../../providers/query-mapping.ts';

type Key = string | number;

/** What the list shows: the filter (user's and archive's) and search a "select all matching" applies to. */
export interface ListQuery {
  filter: TesseraFilter | null;
  search: string;
}

/** A batch write's target as Directus takes it: `{ keys }`, or `{ query }` for every item the view matches. */
export type BulkTarget = { keys: Key[] } | { query: { filter?: TesseraFilter; search?: string; limit: -1 } };

/** The list's selection: keys picked row by row, or every item matching the view (across pages). */
export interface BulkSelection {
  keys: Key[];
  setKeys(keys: Key[]): void;
  allMatching: boolean;
  selectAllMatching(): void;
  clear(): void;
  /** How many items a batch write would touch (`total` of the view when all matching are selected). */
  count(total: number): number;
  target: BulkTarget;
}

/** The body of a batch write for `target` (`data` for an update). */
export function batchBody(target: BulkTarget, data?: Record<string, unknown>): Record<string, unknown> {
  return data === undefined ? { ...target } : { ...target, data };
}

/**
 * Keeps the selection of one list. Changing the filter or search clears it: "all matching" means all
 * matching the view it was chosen in, and keys picked before may no longer be shown.
 */
export function useBulkSelection(query: ListQuery): BulkSelection {
  const [keys, setKeys] = useState<Key[]>([]);
  const [allMatching, setAllMatching] = useState(false);
  const queryKey = JSON.stringify([query.filter, query.search]);
  useEffect(() => {
    setKeys([]);
    setAllMatching(false);
  }, [queryKey]);
  const clear = useCallback(() => {
    setKeys([]);
    setAllMatching(false);
  }, []);
  return useMemo<BulkSelection>(
    () => ({
      keys,
      setKeys: (next) => {
        setKeys(next);
        setAllMatching(false);
      },
      allMatching,
      selectAllMatching: () => setAllMatching(true),
      clear,
      count: (total) => (allMatching ? total : keys.length),
      target: allMatching ? { query: { ...(query.filter ? { filter: query.filter } : {}), ...(query.search ? { search: query.search } : {}), limit: -1 } } : { keys },
    }),
    [keys, allMatching, clear, query.filter, query.search],
  );
}
