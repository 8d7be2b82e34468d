import { resolvePage } from '../../query/pagination.ts';
import type { Query } from '../../query/types.ts';
import type { ItemReads } from '../items/item-reads.ts';

type Item = Record<string, unknown>;

/** How an export reads: items per statement, and the limits a read of the caller's query obeys. */
export interface ExportPaging {
  batchSize: number;
  /** QUERY_LIMIT_MAX (what `limit=-1` means), null: no cap. */
  maxLimit: number | null;
  /** QUERY_LIMIT_DEFAULT, for a query that names no limit. */
  defaultLimit: number;
}

/**
 * The items `query` reads, page by page: each page a keyset read (`after` the previous page's last item,
 * server/query/keyset-cursor.ts) of at most `batchSize` items, so each starts through the sort's index
 * and no statement returns the whole table. The pages together are the items, in the order, one read of
 * `query` returns: its limit caps the total, its offset or page skips before the first page. Aggregate and
 * groupBy reads, one row per group, are read at once.
 */
export async function* exportPages(service: ItemReads, query: Query, paging: ExportPaging): AsyncGenerator<Item[]> {
  if (query.aggregate || query.groupBy) {
    yield (await service.readByQuery({ ...query, meta: undefined })).data;
    return;
  }
  // The whole read's extent, with the errors one read of `query` gives (a limit over the maximum, a page without a limit).
  const total = resolvePage(query, paging.maxLimit, '', paging.defaultLimit);
  let remaining = total.limit;
  let after = query.after;
  let offset: number | undefined = total.offset;
  while (remaining === null || remaining > 0) {
    const limit = remaining === null ? paging.batchSize : Math.min(paging.batchSize, remaining);
    const page: Query = { ...query, meta: undefined, page: undefined, offset, limit, after, nextCursor: true };
    // The page's limit is ours (the total was checked above), so QUERY_LIMIT_MAX does not apply to it again.
    const { data, meta } = await service.readByQuery(page, { maxLimit: undefined });
    if (data.length > 0) yield data;
    const next = meta?.next_cursor ?? null;
    if (next === null) return;
    if (remaining !== null) remaining -= data.length;
    after = next;
    offset = undefined;
  }
}
