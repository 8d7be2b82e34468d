import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import { and, column, or, renderFrom, selectScope, type CompileContext, type Scope, type Sql } from './context.ts';
import { compileOperators, fieldTarget } from './compile-operator.ts';
import { compileSearch } from './compile-search.ts';
import { assertDepth, compileFunction, parseFunctionCall } from './field-functions.ts';
import { followRelation } from './follow-relation.ts';
import { joinManyToAny, joinManyToOne } from './joins.ts';
import { assertNotConcealed, fieldFor, type FieldUse } from './policy.ts';
import { isObject, MAX_JSON_DEPTH } from './parse-values.ts';
import { findRelation, type OneToMany } from './schema-lookup.ts';
import type { Filter } from './types.ts';

/** Splits `item:collection` (a many-to-any scope) into the field and the collection. */
export function splitScope(key: string): [string, string | undefined] {
  const colon = key.indexOf(':');
  return colon < 0 ? [key, undefined] : [key.slice(0, colon), key.slice(colon + 1)];
}

/** The caller's row filter for the scope's collection, compiled into that scope; null when there is none. */
export function policyCondition(ctx: CompileContext, scope: Scope): Sql | null {
  const filter = ctx.policy.itemFilter(scope.collection.collection);
  if (!filter) return null;
  return compileFilter(ctx, scope, filter, { trusted: true, usage: `the permissions of "${scope.collection.collection}"` });
}

/** The WHERE conditions of one scope: the caller's row filter, then the query's filter and search. */
export function rowConditions(ctx: CompileContext, scope: Scope, query: { filter?: Filter; search?: string }, usage: string): Sql[] {
  const conditions: Sql[] = [];
  const policy = policyCondition(ctx, scope);
  if (policy) conditions.push(policy);
  if (query.filter) conditions.push(compileFilter(ctx, scope, query.filter, { trusted: false, usage }));
  if (query.search) conditions.push(compileSearch(ctx, scope, query.search));
  return conditions;
}

/** A filter as an SQL condition on the scope; every field, operator and value is validated on the way. */
export function compileFilter(ctx: CompileContext, scope: Scope, filter: unknown, use: FieldUse): Sql {
  if (!isObject(filter)) throw new InvalidQueryError(`${use.usage} must be an object, e.g. {"title":{"_eq":"x"}}.`);
  // Filters reach here from query strings, JSON bodies, deep options and stored permission rules alike:
  // bounding the recursion here bounds it for every source (and keeps PostgreSQL's stack safe too).
  if (ctx.filterNesting >= MAX_JSON_DEPTH) {
    throw new InvalidQueryError(`The filter in ${use.usage} nests deeper than ${MAX_JSON_DEPTH} levels.`, { field: 'filter' });
  }
  ctx.filterNesting++;
  try {
    return compileConditions(ctx, scope, filter, use);
  } finally {
    ctx.filterNesting--;
  }
}

function compileConditions(ctx: CompileContext, scope: Scope, filter: Record<string, unknown>, use: FieldUse): Sql {
  const parts = Object.entries(filter).map(([key, value]) => {
    if (key !== '_and' && key !== '_or') return fieldCondition(ctx, scope, key, value, use);
    if (!Array.isArray(value)) throw new InvalidQueryError(`${key} in ${use.usage} must be a list of filters.`);
    const items = value.map((item) => compileFilter(ctx, scope, item, use));
    return key === '_and' ? and(items) : or(items);
  });
  return and(parts);
}

/** True for `{ _null: … }` / `{ _nnull: … }` alone: whether a concealed value is set reveals nothing of it. */
function onlyNullChecks(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key === '_null' || key === '_nnull');
}

function fieldCondition(ctx: CompileContext, scope: Scope, key: string, value: unknown, use: FieldUse): Sql {
  if (key.startsWith('_')) {
    throw new InvalidQueryError(`Unexpected "${key}" in ${use.usage}: operators go inside a field, e.g. {"title":{"${key}":…}}.`);
  }
  if (!isObject(value)) {
    throw new InvalidQueryError(`The filter on "${key}" in ${use.usage} must be an object of operators, e.g. {"${key}":{"_eq":…}}.`, {
      field: key,
    });
  }
  const follow = followRelation(ctx, scope, key, use);
  if (follow) return oneToMany(ctx, scope, key, follow, value, use);
  const call = parseFunctionCall(key);
  if (call) return compileOperators(ctx, compileFunction(ctx, scope, call, use), value);
  const [name, target] = splitScope(key);
  const field = fieldFor(ctx, scope.collection, name, use);
  if (!use.trusted && !onlyNullChecks(value)) assertNotConcealed(field, scope.collection, use.usage);
  const relation = findRelation(ctx.schema, scope.collection.collection, name);
  if (target !== undefined) {
    if (relation?.type !== 'm2a') throw new InvalidQueryError(`"${key}": only many-to-any fields take a collection scope.`, { field: name });
    const collection = relation.allowed.find((candidate) => candidate.collection === target);
    if (!collection) throw new InvalidQueryError(`"${target}" is not a collection "${name}" can point to.`, { field: name });
    return compileFilter(ctx, joinManyToAny(ctx, scope, name, relation, collection, use.trusted), value, use);
  }
  if (relation?.type === 'o2m') return oneToMany(ctx, scope, name, relation, value, use);
  const entries = Object.entries(value);
  const operators = entries.filter(([operator]) => operator.startsWith('_') && operator !== '_and' && operator !== '_or');
  const nested = entries.filter((entry) => !operators.includes(entry));
  const parts: Sql[] = [];
  if (operators.length > 0 || nested.length === 0) {
    if (field.alias) throw new InvalidQueryError(`Field "${name}" has no value to filter on.`, { field: name });
    parts.push(compileOperators(ctx, fieldTarget(field, column(scope, name), name), Object.fromEntries(operators)));
  }
  if (nested.length > 0) {
    if (relation?.type !== 'm2o') {
      throw new InvalidQueryError(`"${name}" is not a relational field, so "${nested[0]?.[0]}" cannot be filtered through it.`, { field: name });
    }
    parts.push(compileFilter(ctx, joinManyToOne(ctx, scope, name, relation, use.trusted), Object.fromEntries(nested), use));
  }
  return and(parts);
}

function oneToMany(ctx: CompileContext, scope: Scope, name: string, relation: OneToMany, value: Record<string, unknown>, use: FieldUse): Sql {
  const parts: Sql[] = [];
  const implicit: [string, unknown][] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (key === '_some' || key === '_none') parts.push(quantified(ctx, scope, name, relation, inner, key === '_none', use));
    else if (key.startsWith('_') && key !== '_and' && key !== '_or') {
      throw new InvalidQueryError(`Operator ${key} cannot be used on one-to-many field "${name}": use _some, _none or a filter on its fields.`, {
        field: name,
      });
    } else implicit.push([key, inner]);
  }
  if (implicit.length > 0 || parts.length === 0) parts.push(quantified(ctx, scope, name, relation, Object.fromEntries(implicit), false, use));
  return and(parts);
}

/** `exists` (for `_some`) or `not exists` (for `_none`) over the related items the caller may see. */
function quantified(ctx: CompileContext, scope: Scope, name: string, relation: OneToMany, filter: unknown, none: boolean, use: FieldUse): Sql {
  assertDepth(scope.depth + 1, name);
  const inner = selectScope(ctx, relation.related, scope.depth + 1);
  const conditions = [sql`${column(inner, relation.foreignKey)} = ${column(scope, scope.collection.primary)}`];
  const policy = use.trusted ? null : policyCondition(ctx, inner);
  if (policy) conditions.push(policy);
  conditions.push(compileFilter(ctx, inner, filter, use));
  const exists = sql`exists (select 1 from ${renderFrom(inner.from)} where ${and(conditions)})`;
  return none ? sql`not ${exists}` : exists;
}
