import { InvalidQueryError } from '../errors.ts';
import type { CompileContext, Sql } from './context.ts';
import type { SortKey } from './compile-sort.ts';
import { afterCondition } from './keyset-cursor.ts';
import type { OneToMany } from './schema-lookup.ts';
import type { DeepQuery } from './types.ts';

/**
 * `deep[<o2m field>][_after]=<cursor>` (docs/query.md "after (cursors)"): the condition that starts a nested
 * list after the cursor's item, or null without `_after`. A cursor holds sort values and a primary key, no
 * collection or parent, so the `next_cursor` of a top-level read of the related collection with the same
 * sort pages the nested list too. `label` is the relation's deep path with a trailing dot (`deep.comments.`).
 */
export function nestedAfterCondition(ctx: CompileContext, keys: readonly SortKey[], sort: readonly string[], relation: Pick<OneToMany, 'related'>, deep: DeepQuery, label: string): Sql | null {
  if (deep.after === undefined) return null;
  const field = `${label}_after`;
  if (deep.page !== undefined || (deep.offset !== undefined && deep.offset !== 0)) {
    throw new InvalidQueryError(`${field} cannot be combined with _page or _offset: the cursor says where the list starts.`, { field });
  }
  return afterCondition(keys, { sort: [...sort], limit: null, key: ctx.cursorKey }, deep.after, relation.related, field);
}
