import { sql } from 'kysely';
import { and, column, nextAlias, renderFrom, selectScope, type CompileContext, type Scope, type Sql } from './context.ts';
import { rowConditions } from './compile-filter.ts';
import { compileSortKeys, defaultSort } from './compile-sort.ts';
import { compileFunction } from './field-functions.ts';
import { manyToAnyKey } from './joins.ts';
import { nestedAfterCondition } from './nested-cursor.ts';
import { jsonObject, outputValue } from './output-value.ts';
import { limitClause, resolvePage } from './pagination.ts';
import { primaryField } from './schema-lookup.ts';
import type { RelatedSelection, Selection, SelectionTree } from './selection.ts';

/** Builds a related item from its scope: REST's JSON object by default, or another form (GraphQL's JSON text). */
export type ItemBuilder = (inner: Scope) => Sql;

/** One related item as a JSON object, or null when there is none the caller may see. */
export function relatedObject(ctx: CompileContext, scope: Scope, related: RelatedSelection, match: (inner: Scope) => Sql, build?: ItemBuilder): Sql {
  const inner = selectScope(ctx, related.tree.collection, scope.depth + 1);
  const conditions = [match(inner), ...rowConditions(ctx, inner, related.deep ?? {}, `deep.${related.tree.prefix}_filter`)];
  const object = build ? build(inner) : compileObject(ctx, inner, related.tree);
  return sql`(select ${object} from ${renderFrom(inner.from)} where ${and(conditions)})`;
}

/**
 * The related items of a one-to-many (or many-to-many junction) field as a JSON array, deep options applied;
 * with `build`, each item is the text it returns and the array is that text joined (never null: `[]`).
 */
export function relatedList(ctx: CompileContext, scope: Scope, selection: Extract<Selection, { kind: 'o2m' }>, prefix: string, build?: ItemBuilder): Sql {
  const { relation, deep = {} } = selection;
  const label = `deep.${prefix}${selection.key}.`;
  const inner = selectScope(ctx, relation.related, scope.depth + 1);
  const conditions = [
    sql`${column(inner, relation.foreignKey)} = ${column(scope, scope.collection.primary)}`,
    ...rowConditions(ctx, inner, deep, `${label}_filter`),
  ];
  const value = build
    ? build(inner)
    : selection.tree
      ? compileObject(ctx, inner, selection.tree)
      : outputValue(primaryField(relation.related), column(inner, relation.related.primary));
  const sort = deep.sort ?? defaultSort(ctx, relation.related, relation.relation.meta.sortField);
  const keys = compileSortKeys(ctx, inner, sort, `${label}_sort`);
  const after = nestedAfterCondition(ctx, keys, sort, relation, deep, label);
  if (after) conditions.push(after);
  const page = resolvePage(deep, ctx.maxLimit, `${label}_`);
  const rows = nextAlias(ctx);
  const sortColumns = keys.map((key, index) => sql`${key.value} as ${sql.id(`s${index}`)}`);
  const all = sql`select ${value} as d, ${sql.join(sortColumns)} from ${renderFrom(inner.from)} where ${and(conditions)}`;
  const innerOrder = keys.map((key) => sql`${key.value} ${sql.raw(key.direction)}`);
  const paged = page.limit === null && page.offset === 0 ? all : sql`${all} order by ${sql.join(innerOrder)}${limitClause(page)}`;
  const order = keys.map((key, index) => sql`${sql.id(rows, `s${index}`)} ${sql.raw(key.direction)}`);
  if (build) return sql`(select '[' || coalesce(string_agg(${sql.id(rows, 'd')}, ',' order by ${sql.join(order)}), '') || ']' from (${paged}) as ${sql.id(rows)})`;
  return sql`(select coalesce(json_agg(${sql.id(rows, 'd')} order by ${sql.join(order)}), '[]'::json) from (${paged}) as ${sql.id(rows)})`;
}

/** A many-to-any item: an object from the collection the row names, or the raw key for collections not selected. */
function anyObject(ctx: CompileContext, scope: Scope, selection: Extract<Selection, { kind: 'm2a' }>): Sql {
  const { field, relation } = selection;
  const branches = [...selection.related].map(([name, related]) => {
    const target = related.tree.collection;
    const object = relatedObject(ctx, scope, related, (inner) => {
      return sql`${column(inner, target.primary)} = ${manyToAnyKey(scope, field.field, relation, target)}`;
    });
    return sql`when ${column(scope, relation.collectionField)} = ${name} then ${object}`;
  });
  const raw = sql`to_json(${outputValue(field, column(scope, field.field))})`;
  return branches.length === 0 ? raw : sql`case ${sql.join(branches, sql` `)} else ${raw} end`;
}

function compileSelection(ctx: CompileContext, scope: Scope, selection: Selection, prefix: string): Sql {
  switch (selection.kind) {
    case 'column':
      return outputValue(selection.field, column(scope, selection.field.field));
    case 'function':
      return compileFunction(ctx, scope, selection.call, { trusted: false, usage: 'fields' }).sql;
    case 'm2o': {
      const { field, relation } = selection;
      return relatedObject(ctx, scope, selection.related, (inner) => {
        return sql`${column(inner, relation.related.primary)} = ${column(scope, field)}`;
      });
    }
    case 'o2m':
      return relatedList(ctx, scope, selection, prefix);
    case 'm2a':
      return anyObject(ctx, scope, selection);
  }
}

/** An item of the scope as one JSON object holding every selected key, relations included. */
export function compileObject(ctx: CompileContext, scope: Scope, tree: SelectionTree): Sql {
  return jsonObject(tree.selections.map((selection) => [selection.key, compileSelection(ctx, scope, selection, tree.prefix)] as const));
}
