import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import type { CollectionOverview } from '../schema/overview.ts';
import { column, type CompileContext, type Scope, type Sql } from './context.ts';
import { compileFunction, parseFunctionCall } from './field-functions.ts';
import { joinManyToOne } from './joins.ts';
import { assertNotConcealed, canReadField, readableField } from './policy.ts';
import { findRelation } from './schema-lookup.ts';

/** The sort used when a query names none: the manual sort field when the caller may read it (the key follows). */
export function defaultSort(ctx: CompileContext, collection: CollectionOverview, sortField = collection.sortField): string[] {
  return sortField && canReadField(ctx, collection.collection, sortField) ? [sortField] : [];
}

function sortTarget(ctx: CompileContext, scope: Scope, path: string, usage: string): Sql {
  const segments = path.split('.');
  let current = scope;
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    const call = parseFunctionCall(segment);
    if (call) {
      if (!last) throw new InvalidQueryError(`Cannot sort by "${path}": a function must come last.`);
      return compileFunction(ctx, current, call, { trusted: false, usage }).sql;
    }
    const field = readableField(ctx, current.collection, segment, usage);
    assertNotConcealed(field, current.collection, usage);
    const relation = findRelation(ctx.schema, current.collection.collection, segment);
    if (last) {
      if (field.alias) throw new InvalidQueryError(`Cannot sort by "${path}": "${segment}" has no value of its own; try count(${segment}).`);
      return column(current, segment);
    }
    if (relation?.type !== 'm2o') throw new InvalidQueryError(`Cannot sort by "${path}": "${segment}" is not a many-to-one field.`);
    current = joinManyToOne(ctx, current, segment, relation, false);
  }
  throw new InvalidQueryError(`Cannot sort by an empty field.`);
}

/** One ORDER BY key: the value sorted on and its direction. */
export interface SortKey {
  value: Sql;
  direction: 'asc' | 'desc';
}

/**
 * The sort keys for `sort` on the scope (`-` descending; fields, functions, many-to-one dot paths joined
 * once), ending with the primary key so pages are stable.
 */
export function compileSortKeys(ctx: CompileContext, scope: Scope, sort: readonly string[], usage: string): SortKey[] {
  const primary = scope.collection.primary;
  const keys = sort.map((item): SortKey => {
    const descending = item.startsWith('-');
    const path = descending ? item.slice(1) : item;
    if (!path) throw new InvalidQueryError(`${usage} has an empty field.`);
    return { value: sortTarget(ctx, scope, path, usage), direction: descending ? 'desc' : 'asc' };
  });
  const byKey = sort.some((item) => item === primary || item === `-${primary}`);
  return byKey ? keys : [...keys, { value: column(scope, primary), direction: 'asc' }];
}

/** ORDER BY items for `sort` on the scope (see compileSortKeys). */
export function compileSort(ctx: CompileContext, scope: Scope, sort: readonly string[], usage: string): Sql[] {
  return compileSortKeys(ctx, scope, sort, usage).map((key) => sql`${key.value} ${sql.raw(key.direction)}`);
}
