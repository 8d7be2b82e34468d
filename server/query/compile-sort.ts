import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import type { CollectionOverview } from '../schema/overview.ts';
import type { FieldType } from '../schema/types.ts';
import { NUMERIC_TYPES, TEMPORAL_TYPES, TEXT_TYPES } from './cast-value.ts';
import { policyCondition, splitScope } from './compile-filter.ts';
import { and, column, renderFrom, selectScope, type CompileContext, type Scope, type Sql } from './context.ts';
import { assertDepth, compileFunction, parseFunctionCall } from './field-functions.ts';
import { joinManyToAny, joinManyToOne } from './joins.ts';
import { assertNotConcealed, canReadField, readableField } from './policy.ts';
import { findRelation, type OneToMany, type RelationInfo } from './schema-lookup.ts';

/** The sort used when a query names none: the manual sort field when the caller may read it (the key follows). */
export function defaultSort(ctx: CompileContext, collection: CollectionOverview, sortField = collection.sortField): string[] {
  return sortField && canReadField(ctx, collection.collection, sortField) ? [sortField] : [];
}

/** Types PostgreSQL can take min() and max() of, so a one-to-many sort can pick one related value. */
const RANKABLE = new Set<FieldType>([...NUMERIC_TYPES, ...TEMPORAL_TYPES, ...TEXT_TYPES]);

interface SortValue {
  sql: Sql;
  type: FieldType;
}

function sortTarget(ctx: CompileContext, scope: Scope, segments: readonly string[], path: string, direction: Direction, usage: string): SortValue {
  let current = scope;
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    const call = parseFunctionCall(segment);
    if (call) {
      if (!last) throw new InvalidQueryError(`Cannot sort by "${path}": a function must come last.`);
      return compileFunction(ctx, current, call, { trusted: false, usage });
    }
    const [name, target] = splitScope(segment);
    const field = readableField(ctx, current.collection, name, usage);
    assertNotConcealed(field, current.collection, usage);
    const relation = findRelation(ctx.schema, current.collection.collection, name);
    if (target !== undefined) {
      current = manyToAnyScope(ctx, current, relation, name, target, path, last);
      continue;
    }
    if (last) {
      if (field.alias) throw new InvalidQueryError(`Cannot sort by "${path}": "${segment}" has no value of its own; try count(${segment}).`);
      return { sql: column(current, segment), type: field.type };
    }
    if (relation?.type === 'o2m') return relatedSortValue(ctx, current, relation, segments.slice(index + 1), path, direction, usage);
    if (relation?.type === 'm2a') throw new InvalidQueryError(`Cannot sort by "${path}": many-to-any field "${segment}" points to several collections; name one, e.g. "${segment}:${relation.allowed[0]?.collection ?? 'collection'}.<field>".`);
    if (relation?.type !== 'm2o') throw new InvalidQueryError(`Cannot sort by "${path}": "${segment}" is not a relational field.`);
    current = joinManyToOne(ctx, current, segment, relation, false);
  }
  throw new InvalidQueryError(`Cannot sort by an empty field.`);
}

/**
 * `item:<collection>` in a sort path (Directus's many-to-any scope): the item of that collection the
 * many-to-any field points to, joined like a many-to-one; rows pointing elsewhere join as nulls.
 */
function manyToAnyScope(ctx: CompileContext, scope: Scope, relation: RelationInfo | null, name: string, target: string, path: string, last: boolean): Scope {
  if (relation?.type !== 'm2a') throw new InvalidQueryError(`Cannot sort by "${path}": only many-to-any fields take a collection scope, and "${name}" is not one.`, { field: name });
  const collection = relation.allowed.find((candidate) => candidate.collection === target);
  if (!collection) throw new InvalidQueryError(`Cannot sort by "${path}": "${target}" is not a collection "${name}" can point to.`, { field: name });
  if (last) throw new InvalidQueryError(`Cannot sort by "${path}": name a field of "${target}" after "${name}:${target}".`, { field: name });
  return joinManyToAny(ctx, scope, name, relation, collection, false);
}

/**
 * A one-to-many (or many-to-many) sort path as ONE value per parent, so a page never repeats a parent: the
 * smallest related value ascending, the largest descending (each parent ranks by its first related value
 * in the sort's order), over the related items the caller may see. Parents without one sort as nulls do.
 */
function relatedSortValue(
  ctx: CompileContext,
  scope: Scope,
  relation: OneToMany,
  rest: readonly string[],
  path: string,
  direction: Direction,
  usage: string,
): SortValue {
  assertDepth(scope.depth + 1, path);
  const inner = selectScope(ctx, relation.related, scope.depth + 1);
  const value = sortTarget(ctx, inner, rest, path, direction, usage);
  // PostgreSQL has no min/max of uuid; the canonical text of uuids orders as their bytes do, so rank that.
  const asText = value.type === 'uuid';
  if (!RANKABLE.has(value.type) && !asText) throw new InvalidQueryError(`Cannot sort by "${path}": ${value.type} values through a one-to-many field have no order.`);
  const conditions = [sql`${column(inner, relation.foreignKey)} = ${column(scope, scope.collection.primary)}`];
  const policy = policyCondition(ctx, inner);
  if (policy) conditions.push(policy);
  const pick = sql.raw(direction === 'asc' ? 'min' : 'max');
  const ranked = asText ? sql`${pick}(${value.sql}::text)::uuid` : sql`${pick}(${value.sql})`;
  return { sql: sql`(select ${ranked} from ${renderFrom(inner.from)} where ${and(conditions)})`, type: value.type };
}

type Direction = 'asc' | 'desc';

/** One ORDER BY key: the value sorted on and its direction. */
export interface SortKey {
  value: Sql;
  direction: 'asc' | 'desc';
}

/**
 * The sort keys for `sort` on the scope (`-` descending; fields, functions, many-to-one dot paths joined
 * once, one-to-many paths as one value per parent, many-to-any items as `item:<collection>.<field>`),
 * ending with the primary key so pages are stable.
 */
export function compileSortKeys(ctx: CompileContext, scope: Scope, sort: readonly string[], usage: string): SortKey[] {
  const primary = scope.collection.primary;
  const keys = sort.map((item): SortKey => {
    const descending = item.startsWith('-');
    const path = descending ? item.slice(1) : item;
    if (!path) throw new InvalidQueryError(`${usage} has an empty field.`);
    const direction = descending ? 'desc' : 'asc';
    return { value: sortTarget(ctx, scope, path.split('.'), path, direction, usage).sql, direction };
  });
  const byKey = sort.some((item) => item === primary || item === `-${primary}`);
  return byKey ? keys : [...keys, { value: column(scope, primary), direction: 'asc' }];
}

/** ORDER BY items for `sort` on the scope (see compileSortKeys). */
export function compileSort(ctx: CompileContext, scope: Scope, sort: readonly string[], usage: string): Sql[] {
  return compileSortKeys(ctx, scope, sort, usage).map((key) => sql`${key.value} ${sql.raw(key.direction)}`);
}
