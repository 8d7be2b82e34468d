import { GraphQLInt, GraphQLObjectType, type GraphQLFieldConfig } from 'graphql';
import { findRelation } from '../query/schema-lookup.ts';
import { fieldTypeTraits, type ValueKind } from '../schema/field-type-table.ts';
import type { FieldOverview, SchemaOverview } from '../schema/overview.ts';

/** How the schema builder marks a `<field>_func` field: the field its functions apply to. */
export interface FunctionExtension {
  field: string;
}

const ints = (names: string[]) => Object.fromEntries(names.map((name) => [name, { type: GraphQLInt }]));
const DATE = ['year', 'month', 'week', 'day', 'weekday'];
const TIME = ['hour', 'minute', 'second'];

// Directus's output types of the functions, by the names its clients' documents use.
const COUNT_FUNCTIONS = new GraphQLObjectType({ name: 'count_functions', fields: ints(['count']) });
const DATE_FUNCTIONS = new GraphQLObjectType({ name: 'date_functions', fields: ints(DATE) });
const TIME_FUNCTIONS = new GraphQLObjectType({ name: 'time_functions', fields: ints(TIME) });
const DATETIME_FUNCTIONS = new GraphQLObjectType({ name: 'datetime_functions', fields: ints([...DATE, ...TIME]) });

const BY_VALUE: Partial<Record<ValueKind, GraphQLObjectType>> = { date: DATE_FUNCTIONS, time: TIME_FUNCTIONS, dateTime: DATETIME_FUNCTIONS, json: COUNT_FUNCTIONS };

/** The functions a field takes: date parts of temporal fields, `count` of json and one-to-many (and so many-to-many and many-to-any) fields. */
export function functionsType(schema: SchemaOverview, collection: string, field: FieldOverview): GraphQLObjectType | null {
  if (field.alias) return findRelation(schema, collection, field.field)?.type === 'o2m' ? COUNT_FUNCTIONS : null;
  return BY_VALUE[fieldTypeTraits(field.type).value] ?? null;
}

/**
 * `<field>_func { year month … count }` of a read type: the read selects `year(<field>)` … (selection-to-query.ts),
 * which REST returns as `<field>_year` …; the resolver gives them back under the function names.
 */
export function functionField(type: GraphQLObjectType, field: string): GraphQLFieldConfig<Record<string, unknown>, unknown> {
  const names = Object.keys(type.getFields());
  return {
    type,
    extensions: { tesseraFunc: { field } satisfies FunctionExtension },
    resolve: (parent) => Object.fromEntries(names.map((name) => [name, parent[`${field}_${name}`] ?? null])),
  };
}
