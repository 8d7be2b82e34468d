import { sql } from 'kysely';
import { InvalidQueryError } from '../errors.ts';
import type { CollectionOverview, SchemaOverview } from '../schema/overview.ts';
import { NUMERIC_TYPES, TEMPORAL_TYPES, TEXT_TYPES } from './cast-value.ts';
import { AGGREGATE_FUNCTIONS, type AggregateFunction } from './constants.ts';
import { and, column, createContext, renderFrom, selectScope, type CompileContext, type Scope, type Sql } from './context.ts';
import { rowConditions } from './compile-filter.ts';
import { compileCounts, countQuery, dataColumn, rootCollection, type CompiledRead } from './compile-read.ts';
import { compileFunction, functionKey, parseFunctionCall } from './field-functions.ts';
import { jsonObject, outputValue } from './output-value.ts';
import { limitClause, resolvePage } from './pagination.ts';
import { assertNotConcealed, isConcealed, readableField } from './policy.ts';
import type { Query, ReadOptions } from './types.ts';

interface Group {
  name: string;
  key: string;
  expression: Sql;
  output: Sql;
}

function group(ctx: CompileContext, scope: Scope, name: string): Group {
  const call = parseFunctionCall(name);
  if (call) {
    if (call.fn === 'count') throw new InvalidQueryError(`groupBy cannot use count(); group by a field or a date function.`);
    const expression = compileFunction(ctx, scope, call, { trusted: false, usage: 'groupBy' }).sql;
    return { name, key: functionKey(call), expression, output: expression };
  }
  const field = readableField(ctx, scope.collection, name, 'groupBy');
  assertNotConcealed(field, scope.collection, 'groupBy');
  if (field.alias) throw new InvalidQueryError(`groupBy "${name}": the field has no value of its own.`, { field: name });
  const expression = column(scope, name);
  return { name, key: name, expression, output: outputValue(field, expression) };
}

/** One aggregate of one field: the value returned, and the raw value a sort orders by (sums stay numbers). */
interface AggregateValue {
  output: Sql;
  order: Sql;
}

function plain(value: Sql): AggregateValue {
  return { output: value, order: value };
}

function aggregateValue(ctx: CompileContext, scope: Scope, fn: AggregateFunction, name: string): AggregateValue {
  const field = readableField(ctx, scope.collection, name, 'aggregate');
  if (field.alias) throw new InvalidQueryError(`aggregate ${fn}: "${name}" has no value of its own.`, { field: name });
  if (fn !== 'count' && isConcealed(field)) assertNotConcealed(field, scope.collection, 'aggregate');
  const ref = column(scope, name);
  if (fn === 'count') return plain(sql`count(${ref})`);
  if (fn === 'countDistinct') return plain(sql`count(distinct ${ref})`);
  const exact = field.type === 'bigInteger' || field.type === 'decimal';
  if (fn === 'min' || fn === 'max') {
    if (!NUMERIC_TYPES.has(field.type) && !TEMPORAL_TYPES.has(field.type) && !TEXT_TYPES.has(field.type)) {
      throw new InvalidQueryError(`aggregate ${fn} cannot be applied to ${field.type} field "${name}".`, { field: name });
    }
    const value = sql`${sql.raw(fn)}(${ref})`;
    return { output: outputValue(field, value), order: value };
  }
  if (!NUMERIC_TYPES.has(field.type)) throw new InvalidQueryError(`aggregate ${fn} needs a numeric field; "${name}" is ${field.type}.`, { field: name });
  const distinct = fn.endsWith('Distinct') ? sql`distinct ` : sql``;
  const value = sql`${sql.raw(fn.startsWith('sum') ? 'sum' : 'avg')}(${distinct}${ref})`;
  if (exact) return { output: sql`${value}::text`, order: value };
  return plain(fn.startsWith('avg') ? sql`${value}::float8` : value);
}

/** One `aggregate[fn]=…`: its output, and the values a sort can name (`fn.field`, or `fn` for `*`). */
interface Aggregate {
  fn: string;
  output: Sql;
  values: Map<string, Sql>;
}

function aggregates(ctx: CompileContext, scope: Scope, query: Query): Aggregate[] {
  return Object.entries(query.aggregate ?? {}).map(([fn, fields = []]): Aggregate => {
    if (!(AGGREGATE_FUNCTIONS as readonly string[]).includes(fn)) {
      throw new InvalidQueryError(`Unknown aggregate function "${fn}"; use one of ${AGGREGATE_FUNCTIONS.join(', ')}.`);
    }
    const all = sql`count(*)`;
    if (fn === 'countAll') return { fn, output: all, values: new Map([['*', all]]) };
    if (fields.length === 0) throw new InvalidQueryError(`aggregate ${fn} needs a field.`);
    if (fn === 'count' && fields.includes('*')) {
      if (fields.length > 1) throw new InvalidQueryError('aggregate count takes either * or fields, not both.');
      return { fn, output: all, values: new Map([['*', all]]) };
    }
    const values = fields.map((name) => [name, aggregateValue(ctx, scope, fn as AggregateFunction, name)] as const);
    return { fn, output: jsonObject(values.map(([name, value]) => [name, value.output] as const)), values: new Map(values.map(([name, value]) => [name, value.order])) };
  });
}

/** The aggregate a sort item names: `count.id`, `sum.price`, or `count` / `countAll` for `*`. */
function aggregateOrder(items: Aggregate[], name: string): Sql | undefined {
  const dot = name.indexOf('.');
  const [fn, field] = dot < 0 ? [name, '*'] : [name.slice(0, dot), name.slice(dot + 1)];
  return items.find((item) => item.fn === fn)?.values.get(field);
}

function groupOrder(groups: Group[], items: Aggregate[], sort: readonly string[] | undefined): Sql[] {
  if (!sort) return groups.map((item) => sql`${item.expression} asc`);
  return sort.map((item) => {
    const descending = item.startsWith('-');
    const name = descending ? item.slice(1) : item;
    const value = groups.find((candidate) => candidate.name === name || candidate.key === name)?.expression ?? aggregateOrder(items, name);
    if (!value) {
      throw new InvalidQueryError(`sort "${item}": with aggregate, sort by a groupBy field or an aggregate of the query, e.g. -count.id.`, { field: 'sort' });
    }
    return sql`${value} ${sql.raw(descending ? 'desc' : 'asc')}`;
  });
}

function counts(ctx: CompileContext, collection: CollectionOverview, query: Query): Sql[] {
  return (query.meta ?? []).map((key) =>
    key === 'total_count' ? sql`${countQuery(ctx, collection, {})} as total_count` : sql`${countQuery(ctx, collection, query)} as filter_count`,
  );
}

/**
 * Compiles `aggregate` and `groupBy` into one statement; each row is shaped like Directus:
 * `{ count: 10 }`, `{ sum: { price: 12 } }`, `{ author: 1, count: { id: 3 } }`, functions keyed `date_year`.
 */
export function compileAggregateQuery(schema: SchemaOverview, collectionName: string, query: Query, options: ReadOptions): CompiledRead {
  const ctx = createContext(schema, options);
  const collection = rootCollection(ctx, collectionName);
  if (query.deep || query.alias) throw new InvalidQueryError('deep and alias cannot be combined with aggregate or groupBy.');
  const scope = selectScope(ctx, collection, 0);
  const groups = (query.groupBy ?? []).map((name) => group(ctx, scope, name));
  const items = aggregates(ctx, scope, query);
  const data = jsonObject([...groups.map((item) => [item.key, item.output] as const), ...items.map((item) => [item.fn, item.output] as const)]);
  const where = rowConditions(ctx, scope, query, 'filter');
  const order = groupOrder(groups, items, query.sort);
  const grouping = groups.length === 0 ? sql`` : sql` group by ${sql.join(groups.map((item) => item.expression))}`;
  const ordering = order.length === 0 ? sql`` : sql` order by ${sql.join(order)}`;
  const page = resolvePage(query, ctx.maxLimit, '', ctx.defaultLimit);
  const columns = [dataColumn(data, options), ...counts(ctx, collection, query)];
  const statement = sql`select ${sql.join(columns)} from ${renderFrom(scope.from)} where ${and(where)}${grouping}${ordering}${limitClause(page)}`;
  const meta = query.meta ?? [];
  return { statement, meta, counts: () => compileCounts(createContext(schema, options), collection, query, meta) };
}
