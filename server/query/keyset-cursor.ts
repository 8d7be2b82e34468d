import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import type { CollectionOverview } from '../schema/overview.ts';
import { and, or, type Sql } from './context.ts';
import type { SortKey } from './compile-sort.ts';
import type { Page } from './pagination.ts';
import type { Query } from './types.ts';

/**
 * Keyset pagination (`?after=<cursor>`, docs/query.md "Cursors"): a cursor names the sort values and the
 * primary key of the last item of a page, and the next page is the items that sort after it. Unlike
 * `offset`, PostgreSQL does not read the skipped items, so page 40,000 costs what page 1 costs.
 */

/** What a cursor read needs at run time: the sort its cursors are made for, and the page size asked for. */
export interface CursorRead {
  sort: string[];
  /** Items per page; null (limit=-1) returns every item, so there is never a next cursor. */
  limit: number | null;
  /** The key cursors are signed with (ReadOptions.cursorKey). */
  key: string | undefined;
}

/** A decoded cursor: the sort it was made for and one value (as text, null for SQL NULL) per sort key. */
interface Cursor {
  sort: string[];
  values: Array<string | null>;
}

const ERROR_FIELD = { field: 'after' } as const;

/** `field`: the parameter holding the cursor (`after`, or `deep.<relation>._after` for a nested list). */
function invalidCursor(reason: string, field: string): InvalidQueryError {
  return new InvalidQueryError(`${field} is not a cursor of this read: ${reason}. Pass the next cursor of the previous page unchanged (meta.next_cursor; <collection>_next_cursor in GraphQL).`, { field });
}

let derived: { secret: string; key: string } | null = null;

/** The key cursors are signed with, derived from SECRET, so every instance of a project accepts the others' cursors. */
export function cursorKey(secret: string | null): string {
  const source = secret ?? '';
  if (derived?.secret !== source) derived = { secret: source, key: createHmac('sha256', source).update('tessera cursor').digest('hex') };
  return derived.key;
}

function signature(payload: string, key: string): string {
  return createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');
}

/**
 * The opaque text of a cursor: base64url of JSON, and its signature when the read has a key. Signed, a
 * cursor cannot be edited into a comparison with a value of the wrong type, or into a probe.
 */
export function encodeCursor(sort: readonly string[], values: ReadonlyArray<string | null>, key: string | undefined): string {
  const payload = Buffer.from(JSON.stringify([sort, values]), 'utf8').toString('base64url');
  return key === undefined ? payload : `${payload}.${signature(payload, key)}`;
}

function decodeCursor(text: string, key: string | undefined, field: string): Cursor {
  const invalid = (reason: string) => invalidCursor(reason, field);
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)?$/.test(text)) throw invalid('it holds characters outside base64url');
  const [payload = '', signed = ''] = text.split('.');
  if (key !== undefined) {
    const expected = Buffer.from(signature(payload, key));
    if (expected.length !== signed.length || !timingSafeEqual(expected, Buffer.from(signed))) throw invalid('its signature does not match');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('it does not decode');
  }
  const isTextList = (value: unknown, nulls: boolean): value is Array<string | null> =>
    Array.isArray(value) && value.every((item) => typeof item === 'string' || (nulls && item === null));
  if (!Array.isArray(parsed) || parsed.length !== 2 || !isTextList(parsed[0], false) || !isTextList(parsed[1], true)) throw invalid('it does not decode');
  return { sort: parsed[0] as string[], values: parsed[1] };
}

/** True when the read returns `meta.next_cursor` (it continues from a cursor, or asked for one). */
export function isCursorRead(query: Pick<Query, 'after' | 'nextCursor'>): boolean {
  return query.after !== undefined || query.nextCursor === true;
}

/** Refuses what cannot go with a cursor: a page or offset (the cursor says where the page starts), aggregates. */
export function assertCursorQuery(query: Query): void {
  if (!isCursorRead(query)) return;
  if (query.aggregate || query.groupBy) throw new InvalidQueryError('after and meta=next_cursor page items, not aggregate or groupBy results.', ERROR_FIELD);
  if (query.limit === 0) throw new InvalidQueryError('limit=0 has no last item to continue after; use a limit of at least 1 with after or meta=next_cursor.', { field: 'limit' });
  if (query.after === undefined) return;
  if (query.page !== undefined) throw new InvalidQueryError('after cannot be combined with page: the cursor says where the page starts.', ERROR_FIELD);
  if (query.offset !== undefined && query.offset !== 0) throw new InvalidQueryError('after cannot be combined with offset: the cursor says where the page starts.', ERROR_FIELD);
}

/** The rows strictly after `value` on one key, in the order PostgreSQL sorts (nulls last ascending, first descending). */
function afterValue(key: SortKey, value: string | null): Sql {
  if (key.direction === 'asc') return value === null ? sql`false` : sql`(${key.value} > ${value} or ${key.value} is null)`;
  return value === null ? sql`${key.value} is not null` : sql`${key.value} < ${value}`;
}

function equalValue(key: SortKey, value: string | null): Sql {
  return value === null ? sql`${key.value} is null` : sql`${key.value} = ${value}`;
}

/**
 * The WHERE condition for the rows after `after` under `keys` (compileSortKeys' keys, the primary key last):
 * `k1 after v1 or (k1 = v1 and (k2 after v2 or …))`. When the first key is a column that holds no nulls,
 * a plain range on it (`k1 >= v1`, `k1 <= v1` descending) leads, so an index on it starts at the cursor.
 */
export function afterCondition(keys: readonly SortKey[], read: CursorRead, after: string, collection: CollectionOverview, field = 'after'): Sql {
  const { sort } = read;
  const invalid = (reason: string) => invalidCursor(reason, field);
  const cursor = decodeCursor(after, read.key, field);
  if (cursor.sort.join(',') !== sort.join(',')) throw invalid(`it was made for sort=${cursor.sort.join(',') || '(none)'}, this read sorts by ${sort.join(',') || '(none)'}`);
  if (cursor.values.length !== keys.length) throw invalid('it holds a different number of sort values');
  if (cursor.values[keys.length - 1] === null) throw invalid('its primary key is missing');
  let condition = afterValue(keys[keys.length - 1]!, cursor.values[keys.length - 1]!);
  for (let index = keys.length - 2; index >= 0; index--) {
    const key = keys[index]!;
    const value = cursor.values[index]!;
    condition = or([afterValue(key, value), and([equalValue(key, value), condition])]);
  }
  const first = keys[0]!;
  const firstValue = cursor.values[0];
  const leading = sort.length === 0 ? collection.fields[collection.primary] : collection.fields[sort[0]!.replace(/^-/, '')];
  const notNull = leading !== undefined && !leading.alias && (leading.primaryKey || !leading.nullable);
  if (keys.length > 1 && firstValue !== null && (first.direction === 'desc' || notNull)) {
    condition = and([first.direction === 'asc' ? sql`${first.value} >= ${firstValue}` : sql`${first.value} <= ${firstValue}`, condition]);
  }
  return condition;
}

/** The column holding each row's sort values as text, from which the next cursor is made. */
export function cursorColumn(values: readonly Sql[]): Sql {
  return sql`array[${sql.join(values.map((value) => sql`(${value})::text`))}] as __cursor`;
}

/** A cursor read's page: one item more than asked for, whose presence says a next page exists. */
export function cursorPage(page: Page): Page {
  return page.limit === null ? page : { limit: page.limit + 1, offset: page.offset };
}

/** The rows of a page and its next cursor: the extra row fetched by cursorPage is dropped. */
export function takeCursorPage<Row extends { __cursor?: Array<string | null> }>(rows: Row[], read: CursorRead): { rows: Row[]; next: string | null } {
  if (read.limit === null || rows.length <= read.limit) return { rows, next: null };
  const page = rows.slice(0, read.limit);
  return { rows: page, next: encodeCursor(read.sort, page[page.length - 1]!.__cursor ?? [], read.key) };
}
