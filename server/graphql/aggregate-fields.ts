import { GraphQLFloat, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, Kind, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLOutputType, type GraphQLResolveInfo } from 'graphql';
import type { DeepQuery, Query } from '../query/types.ts';
import type { FieldOverview } from '../schema/overview.ts';
import { ItemsService } from '../services/items/items-service.ts';
import type { GraphQLContext } from './build-schema.ts';
import { GraphQLJSON } from './scalars.ts';
import type { ListArgs } from './selection-to-query.ts';

const AGGREGATES = ['count', 'countDistinct', 'sum', 'sumDistinct', 'avg', 'avgDistinct', 'min', 'max'] as const;
const NUMERIC = new Set(['integer', 'bigInteger', 'float', 'decimal']);

function aggregatedType(gql: string, fields: FieldOverview[]): GraphQLObjectType {
  const columns = fields.filter((field) => !field.alias);
  const numeric = columns.filter((field) => NUMERIC.has(field.type));
  const object = (suffix: string, of: FieldOverview[], type: GraphQLOutputType) =>
    of.length === 0 ? null : new GraphQLObjectType({ name: `${gql}_aggregated_${suffix}`, fields: Object.fromEntries(of.map((field) => [field.field, { type }])) });
  const count = object('count', columns, GraphQLInt);
  const calc = object('fields', numeric, GraphQLFloat);
  const out: Record<string, GraphQLFieldConfig<unknown, unknown>> = { group: { type: GraphQLJSON }, countAll: { type: GraphQLInt } };
  for (const fn of AGGREGATES) {
    const type = fn.startsWith('count') ? count : calc;
    if (type) out[fn] = { type };
  }
  return new GraphQLObjectType({ name: `${gql}_aggregated`, fields: out });
}

/** `count { id } sum { price }` → `{ count: ['id'], sum: ['price'] }`. */
function aggregateOf(info: GraphQLResolveInfo): NonNullable<Query['aggregate']> {
  const aggregate: Record<string, string[]> = {};
  for (const node of info.fieldNodes[0]!.selectionSet?.selections ?? []) {
    if (node.kind !== Kind.FIELD) continue;
    const fn = node.name.value;
    if (fn === 'countAll') aggregate.countAll = ['*'];
    if (!(AGGREGATES as readonly string[]).includes(fn)) continue;
    for (const child of node.selectionSet?.selections ?? []) {
      if (child.kind === Kind.FIELD && child.name.value !== '__typename') (aggregate[fn] ??= []).push(child.name.value);
    }
  }
  if (Object.keys(aggregate).length === 0) aggregate.countAll = ['*'];
  return aggregate;
}

function toAggregated(row: Record<string, unknown>, groupBy: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const group: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if ((AGGREGATES as readonly string[]).includes(key) || key === 'countAll') out[key] = value;
    else group[key] = value;
  }
  if (groupBy.length > 0) out.group = group;
  return out;
}

/** `<collection>_aggregated(groupBy, filter, sort …) { count { id } sum { price } group }`, run as REST's `aggregate`. */
export function aggregatedField(name: string, gql: string, fields: FieldOverview[], args: GraphQLFieldConfigArgumentMap, options: (args: ListArgs) => DeepQuery): GraphQLFieldConfig<unknown, GraphQLContext> {
  return {
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(aggregatedType(gql, fields)))),
    args: { groupBy: { type: new GraphQLList(GraphQLString) }, ...args },
    resolve: async (_root, args: ListArgs & { groupBy?: string[] | null }, context, info) => {
      const base: Query = { ...options(args), aggregate: aggregateOf(info) };
      if (args.groupBy) base.groupBy = args.groupBy;
      const rows = (await new ItemsService(name, context.items).readByQuery(base)).data;
      return rows.map((row) => toAggregated(row, args.groupBy ?? []));
    },
  };
}
