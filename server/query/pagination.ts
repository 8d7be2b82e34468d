import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import { QUERY_LIMIT_DEFAULT } from './constants.ts';
import type { Sql } from './context.ts';

/** LIMIT and OFFSET of one SELECT; a null limit returns every row. */
export interface Page {
  limit: number | null;
  offset: number;
}

function integer(value: number | undefined, minimum: number, name: string): number | undefined {
  if (value !== undefined && (!Number.isInteger(value) || value < minimum)) {
    throw new InvalidQueryError(`${name} must be an integer of at least ${minimum}; got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * The page a query asks for: `limit` defaults to `defaultLimit` (QUERY_LIMIT_DEFAULT), `-1` means all (or `maxLimit`), a larger
 * limit than `maxLimit` is refused, and `page` (1-based) overrides `offset`.
 */
export function resolvePage(input: { limit?: number; offset?: number; page?: number }, maxLimit: number | null, prefix = '', defaultLimit = QUERY_LIMIT_DEFAULT): Page {
  const requested = integer(input.limit, -1, `${prefix}limit`);
  const offset = integer(input.offset, 0, `${prefix}offset`) ?? 0;
  const page = integer(input.page, 1, `${prefix}page`);
  let limit: number | null = requested ?? defaultLimit;
  if (limit === -1) limit = maxLimit;
  else if (maxLimit !== null && limit > maxLimit) {
    if (requested !== undefined) throw new InvalidQueryError(`${prefix}limit ${limit} exceeds the maximum of ${maxLimit}.`);
    limit = maxLimit;
  }
  if (page === undefined) return { limit, offset };
  if (limit === null) {
    if (page > 1) throw new InvalidQueryError(`${prefix}page ${page} needs a limit: with limit -1 every item is on page 1.`);
    return { limit, offset: 0 };
  }
  const skipped = (page - 1) * limit;
  // Past 2^53 the product is no longer exact, and PostgreSQL's bigint OFFSET overflows soon after.
  if (!Number.isSafeInteger(skipped)) throw new InvalidQueryError(`${prefix}page ${page} with limit ${limit} skips more items than can be counted.`, { field: `${prefix}page` });
  return { limit, offset: skipped };
}

/** ` limit … offset …` for a page, or nothing when it asks for every row. */
export function limitClause(page: Page): Sql {
  const limit = page.limit === null ? sql`` : sql` limit ${page.limit}`;
  return page.offset === 0 ? limit : sql`${limit} offset ${page.offset}`;
}
