import { getNamedType, GraphQLBoolean, GraphQLInputObjectType, GraphQLList, GraphQLScalarType, GraphQLString, isInputObjectType, Kind, type GraphQLInputFieldConfigMap, type GraphQLInputType } from 'graphql';
import { findRelation } from '../query/schema-lookup.ts';
import type { Filter } from '../query/types.ts';
import { fieldTypeTraits, type FilterOperatorSet, type ValueKind } from '../schema/field-type-table.ts';
import type { FieldOverview, SchemaOverview } from '../schema/overview.ts';

function stringOrNumber(name: string, description: string): GraphQLScalarType {
  const accept = (value: unknown) => {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
    throw new TypeError(`${name} takes a string or a number.`);
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: accept,
    parseValue: accept,
    parseLiteral: (node) => {
      if (node.kind === Kind.STRING) return node.value;
      if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return Number(node.value);
      throw new TypeError(`${name} takes a string or a number.`);
    },
  });
}

/** Directus's scalar for numeric filter values: a number, or a string (`"$NOW"`, a decimal written as text). */
export const GraphQLStringOrFloat = stringOrNumber('GraphQLStringOrFloat', 'A string or a number.');
/** Directus's scalar for bigint filter values: a number or its digits as a string (no precision lost). */
export const GraphQLBigInt = stringOrNumber('GraphQLBigInt', 'A 64-bit integer, as a number or a string of digits.');

const bool = { type: GraphQLBoolean };
const nulls = { _null: bool, _nnull: bool };

function comparable(name: string, value: GraphQLInputType, between: GraphQLInputType): GraphQLInputObjectType {
  const list = { type: new GraphQLList(value) };
  return new GraphQLInputObjectType({
    name,
    fields: { _eq: { type: value }, _neq: { type: value }, _lt: { type: value }, _lte: { type: value }, _gt: { type: value }, _gte: { type: value }, _in: list, _nin: list, ...nulls, _between: { type: new GraphQLList(between) }, _nbetween: { type: new GraphQLList(between) } },
  });
}

const text = { type: GraphQLString };
const STRING = new GraphQLInputObjectType({
  name: 'string_filter_operators',
  fields: {
    _eq: text,
    _neq: text,
    _contains: text,
    _icontains: text,
    _ncontains: text,
    _nicontains: text,
    _starts_with: text,
    _nstarts_with: text,
    _istarts_with: text,
    _nistarts_with: text,
    _ends_with: text,
    _nends_with: text,
    _iends_with: text,
    _niends_with: text,
    _in: { type: new GraphQLList(GraphQLString) },
    _nin: { type: new GraphQLList(GraphQLString) },
    ...nulls,
    _empty: bool,
    _nempty: bool,
  },
});
const NUMBER = comparable('number_filter_operators', GraphQLStringOrFloat, GraphQLStringOrFloat);
const BIG_INT = comparable('big_int_filter_operators', GraphQLBigInt, GraphQLBigInt);
const DATE = comparable('date_filter_operators', GraphQLString, GraphQLStringOrFloat);
const BOOLEAN = new GraphQLInputObjectType({ name: 'boolean_filter_operators', fields: { _eq: bool, _neq: bool, ...nulls } });
const HASH = new GraphQLInputObjectType({ name: 'hash_filter_operators', fields: { ...nulls, _empty: bool, _nempty: bool } });

const numberOf = (parts: string[]) => Object.fromEntries(parts.map((part) => [part, { type: NUMBER }]));
const COUNT_FUNCTION = new GraphQLInputObjectType({ name: 'count_function_filter_operators', fields: numberOf(['count']) });
const DATE_FUNCTION = new GraphQLInputObjectType({ name: 'date_function_filter_operators', fields: numberOf(['year', 'month', 'week', 'day', 'weekday']) });
const TIME_FUNCTION = new GraphQLInputObjectType({ name: 'time_function_filter_operators', fields: numberOf(['hour', 'minute', 'second']) });
const DATETIME_FUNCTION = new GraphQLInputObjectType({ name: 'datetime_function_filter_operators', fields: numberOf(['year', 'month', 'week', 'day', 'weekday', 'hour', 'minute', 'second']) });

const OPERATOR_TYPES: Record<FilterOperatorSet, GraphQLInputObjectType> = { number: NUMBER, bigInteger: BIG_INT, boolean: BOOLEAN, date: DATE, hash: HASH, string: STRING };

/** The operator type of a column, by its storage type (the field-type table: Directus's mapping). */
function operatorsOf(field: FieldOverview): GraphQLInputObjectType {
  return OPERATOR_TYPES[fieldTypeTraits(field.type).filter];
}

/** The functions (`year`, `hour`, `count` …) a field of each value kind takes. */
const FUNCTIONS_BY_VALUE: Partial<Record<ValueKind, GraphQLInputObjectType>> = { date: DATE_FUNCTION, time: TIME_FUNCTION, dateTime: DATETIME_FUNCTION, json: COUNT_FUNCTION };

function functionsOf(field: FieldOverview): GraphQLInputObjectType | null {
  return FUNCTIONS_BY_VALUE[fieldTypeTraits(field.type).value] ?? null;
}

/** How a filter input field maps to the REST filter: `<field>_func` to functions of the field, `item__<c>` to `item:<c>`. */
interface FilterFieldExtension {
  functionsOf?: string;
  key?: string;
}

/**
 * Builds the `<collection>_filter` input types of one role's schema; only the fields given (readable ones) appear.
 * A one-to-many field (and so a many-to-many, through its junction) takes `<related>_quantifier_filter`: the
 * related filter plus `_some` / `_none` (Directus 10), which the query compiler runs as `exists` / `not exists`.
 * A many-to-any field takes `<field>__<collection>` per allowed collection (Directus: `item__<collection>`).
 */
export function createFilterTypes(schema: SchemaOverview, fieldsOf: ReadonlyMap<string, FieldOverview[]>, nameOf: (collection: string) => string): (collection: string) => GraphQLInputObjectType {
  const types = new Map<string, GraphQLInputObjectType>();
  const quantifiers = new Map<string, GraphQLInputObjectType>();
  const fieldsFor = (collection: string, self: GraphQLInputObjectType): GraphQLInputFieldConfigMap => {
    const out: GraphQLInputFieldConfigMap = { _and: { type: new GraphQLList(self) }, _or: { type: new GraphQLList(self) } };
    const names = new Set(fieldsOf.get(collection)!.map((field) => field.field));
    const addFunction = (field: string, functions: GraphQLInputObjectType) => {
      if (!names.has(`${field}_func`)) out[`${field}_func`] = { type: functions, extensions: { tessera: { functionsOf: field } satisfies FilterFieldExtension } };
    };
    for (const field of fieldsOf.get(collection)!) {
      const relation = findRelation(schema, collection, field.field);
      if (relation?.type === 'm2a') {
        for (const { collection: member } of relation.allowed) {
          const key = `${field.field}__${nameOf(member)}`;
          if (fieldsOf.has(member) && !names.has(key)) out[key] = { type: filterOf(member), extensions: { tessera: { key: `${field.field}:${member}` } satisfies FilterFieldExtension } };
        }
        continue;
      }
      if (relation?.type === 'o2m') {
        if (!fieldsOf.has(relation.related.collection)) continue;
        out[field.field] = { type: quantifierOf(relation.related.collection) };
        addFunction(field.field, COUNT_FUNCTION);
        continue;
      }
      if (field.alias) continue;
      if (relation?.type === 'm2o' && fieldsOf.has(relation.related.collection)) {
        out[field.field] = { type: filterOf(relation.related.collection) };
        continue;
      }
      out[field.field] = { type: operatorsOf(field) };
      const functions = functionsOf(field);
      if (functions) addFunction(field.field, functions);
    }
    return out;
  };
  const filterOf = (collection: string): GraphQLInputObjectType => {
    const existing = types.get(collection);
    if (existing) return existing;
    const type: GraphQLInputObjectType = new GraphQLInputObjectType({ name: `${nameOf(collection)}_filter`, fields: () => fieldsFor(collection, type), extensions: { tesseraFilter: true } });
    types.set(collection, type);
    return type;
  };
  const quantifierOf = (collection: string): GraphQLInputObjectType => {
    const existing = quantifiers.get(collection);
    if (existing) return existing;
    const type: GraphQLInputObjectType = new GraphQLInputObjectType({
      name: `${nameOf(collection)}_quantifier_filter`,
      fields: () => ({ ...fieldsFor(collection, type), _some: { type: filterOf(collection) }, _none: { type: filterOf(collection) } }),
      extensions: { tesseraFilter: true },
    });
    quantifiers.set(collection, type);
    return type;
  };
  return filterOf;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A collection's filter type (not an operator type): its keys are fields, walked by toQueryFilter. */
function filterTypeOf(type: GraphQLInputType): GraphQLInputObjectType | null {
  const named = getNamedType(type);
  return isInputObjectType(named) && named.extensions.tesseraFilter ? named : null;
}

/**
 * A typed GraphQL filter (values as graphql-js coerced them against `type`) as the query compiler takes it:
 * `<field>_func: { year: … }` becomes `year(<field>)`, `item__<c>` becomes `item:<c>`; field names,
 * `_and`/`_or` and operators are the REST ones. Read from the input type, so a real field named `x_func` keeps its operators.
 */
export function toQueryFilter(value: Record<string, unknown>, type: GraphQLInputObjectType): Filter {
  const out: Record<string, unknown> = {};
  const fields = type.getFields();
  for (const [key, inner] of Object.entries(value)) {
    const field = fields[key];
    const extension = field?.extensions.tessera as FilterFieldExtension | undefined;
    const nested = field ? filterTypeOf(field.type) : null;
    if (extension?.functionsOf !== undefined && isRecord(inner)) {
      for (const [fn, operators] of Object.entries(inner)) out[`${fn}(${extension.functionsOf})`] = operators;
    } else if (nested && Array.isArray(inner)) {
      out[key] = inner.map((item) => (isRecord(item) ? toQueryFilter(item, nested) : item));
    } else if (nested && isRecord(inner)) {
      out[extension?.key ?? key] = toQueryFilter(inner, nested);
    } else {
      out[key] = inner;
    }
  }
  return out as Filter;
}
