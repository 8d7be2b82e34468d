import { sql } from 'kysely';
import type { CollectionOverview } from '../schema/overview.ts';
import type { FieldType } from '../schema/types.ts';
import { and, column, nextAlias, renderFrom, selectScope, type CompileContext, type Scope, type Sql } from './context.ts';
import { policyCondition } from './compile-filter.ts';
import { assertDepth } from './field-functions.ts';
import { findField, primaryField, type ManyToAny, type ManyToOne } from './schema-lookup.ts';

const KEY_PATTERNS: Partial<Record<FieldType, { pattern: string; type: string }>> = {
  integer: { pattern: '^-?[0-9]{1,9}$', type: 'integer' },
  bigInteger: { pattern: '^-?[0-9]{1,18}$', type: 'bigint' },
  uuid: { pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', type: 'uuid' },
};

/**
 * The key a many-to-any column holds, typed as `target`'s primary key, for rows pointing to `target` only
 * (null otherwise). Keys that cannot be of that type read as null instead of failing the statement.
 */
export function manyToAnyKey(scope: Scope, field: string, relation: ManyToAny, target: CollectionOverview): Sql {
  const key = primaryField(target);
  const item = column(scope, field);
  const cast = KEY_PATTERNS[key.type];
  let value: Sql = item;
  if (findField(scope.collection, field)?.type !== key.type) {
    value = cast ? sql`case when ${item}::text ~ ${cast.pattern} then ${item}::text::${sql.raw(cast.type)} end` : sql`${item}::text`;
  }
  return sql`case when ${column(scope, relation.collectionField)} = ${target.collection} then ${value} end`;
}

function join(ctx: CompileContext, scope: Scope, key: string, inner: Scope, conditions: Sql[], trusted: boolean): Scope {
  if (!trusted) {
    const policy = policyCondition(ctx, inner);
    if (policy) conditions.push(policy);
  }
  const alias = nextAlias(ctx);
  const related = sql`select ${sql.id(inner.alias)}.* from ${renderFrom(inner.from)} where ${and(conditions)}`;
  scope.from.joins.push(sql`left join lateral (${related}) as ${sql.id(alias)} on true`);
  const joined: Scope = { collection: inner.collection, alias, from: scope.from, joins: new Map(), depth: inner.depth };
  scope.joins.set(key, joined);
  return joined;
}

/**
 * The related item of many-to-one `field`, left-joined into the scope's SELECT once per path. Items the
 * caller may not see join as nulls; `trusted` (permission filters themselves) skips the related rules.
 */
export function joinManyToOne(ctx: CompileContext, scope: Scope, field: string, relation: ManyToOne, trusted: boolean): Scope {
  const key = `${trusted ? '!' : ''}${field}`;
  const existing = scope.joins.get(key);
  if (existing) return existing;
  assertDepth(scope.depth + 1, field);
  const inner = selectScope(ctx, relation.related, scope.depth + 1);
  const conditions = [sql`${column(inner, relation.related.primary)} = ${column(scope, field)}`];
  return join(ctx, scope, key, inner, conditions, trusted);
}

/** The item of `target` a many-to-any `field` points to, left-joined like a many-to-one. */
export function joinManyToAny(
  ctx: CompileContext,
  scope: Scope,
  field: string,
  relation: ManyToAny,
  target: CollectionOverview,
  trusted: boolean,
): Scope {
  const key = `${trusted ? '!' : ''}${field}:${target.collection}`;
  const existing = scope.joins.get(key);
  if (existing) return existing;
  assertDepth(scope.depth + 1, `${field}:${target.collection}`);
  const inner = selectScope(ctx, target, scope.depth + 1);
  const conditions = [sql`${column(inner, target.primary)} = ${manyToAnyKey(scope, field, relation, target)}`];
  return join(ctx, scope, key, inner, conditions, trusted);
}
