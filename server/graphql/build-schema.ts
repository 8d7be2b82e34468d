import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  Kind,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
} from 'graphql';
import type { Access } from '../permissions/access.ts';
import { findRelation } from '../query/schema-lookup.ts';
import type { Query } from '../query/types.ts';
import { fieldTypeTraits, type GraphQLScalarName } from '../schema/field-type-table.ts';
import type { CollectionOverview, FieldOverview, SchemaOverview } from '../schema/overview.ts';
import { ItemsService, type ItemKey } from '../services/items/items-service.ts';
import type { ItemsContext } from '../services/items/items-service.ts';
import { etagOf, expectedFromArgument, type ExpectedVersions } from '../services/items/expected-versions.ts';
import { addCurrentItems } from '../services/items/stale-items.ts';
import { ForbiddenError, PreconditionFailedError } from '../errors.ts';
import { createFilterTypes } from './filter-types.ts';
import type { RootReadExtension } from './fast-read.ts';
import type { LeafExtension } from './json-shape.ts';
import { GraphQLJSON } from './scalars.ts';
import { mutatedField, type SubscribeToChanges } from './subscription-fields.ts';
import { listOptions, selectionToQuery, type AnyExtension, type ListArgs, type RelationalExtension } from './selection-to-query.ts';

/** What every resolver gets: the items context of the caller (its accountability, database and Access). */
export interface GraphQLContext {
  items: ItemsContext;
  /** Set on the graphql-ws endpoint: where `<collection>_mutated` subscriptions get their events. */
  subscribe?: SubscribeToChanges;
  [key: PropertyKey]: unknown;
}

/** Which collections a schema serves: user collections (/graphql) or system ones (/graphql/system). */
export type GraphQLScope = 'items' | 'system';

// A GraphQL name, and not one of the `__…` names GraphQL reserves for introspection (a field `__note` would
// otherwise fail the whole schema: every query of the project a 400).
const NAME = /^(?!__)[_A-Za-z][_0-9A-Za-z]*$/;
/** Where a many-to-any item carries its collection to the union's resolveType. */
const ANY_COLLECTION = Symbol('collection');
const NUMERIC = new Set(['integer', 'bigInteger', 'float', 'decimal']);

const SCALARS: Record<GraphQLScalarName, GraphQLOutputType & GraphQLInputType> = { Int: GraphQLInt, Float: GraphQLFloat, Boolean: GraphQLBoolean, String: GraphQLString, JSON: GraphQLJSON };

/** A field's GraphQL scalar, from the field-type table (bigInteger and decimal as strings: no precision loss). */
function scalarOf(field: FieldOverview): GraphQLOutputType & GraphQLInputType {
  if (field.primaryKey) return GraphQLID;
  return SCALARS[fieldTypeTraits(field.type).graphql];
}

/** What the role may read of each collection: absent collections and fields do not exist in its schema. */
function readable(access: Access | null, schema: SchemaOverview, collection: CollectionOverview): FieldOverview[] | null {
  if (access && !access.permission(collection.collection, 'read')) return null;
  const allowed = access ? access.readPolicy().allowedFields(collection.collection) : '*';
  return Object.values(collection.fields).filter((field) => NAME.test(field.field) && (allowed === '*' || allowed.has(field.field)) && !field.concealed && (!field.alias || findRelation(schema, collection.collection, field.field)?.type === 'o2m'));
}

/** GraphQL type names for a system collection: Directus drops its prefix (`directus_users` → `users`). */
export function graphqlName(collection: string, scope: GraphQLScope): string {
  return scope === 'system' ? collection.replace(/^tessera_/, '') : collection;
}

/** The list arguments of a collection (root field, o2m field), with its typed `<collection>_filter`. */
function listArgs(filter: GraphQLInputObjectType): GraphQLFieldConfigArgumentMap {
  return {
    filter: { type: filter },
    sort: { type: new GraphQLList(GraphQLString) },
    limit: { type: GraphQLInt },
    offset: { type: GraphQLInt },
    page: { type: GraphQLInt },
    search: { type: GraphQLString },
  };
}

/**
 * Builds the schema of one role: a query field per readable collection (list, `_by_id`, `_aggregated`),
 * mutations for the actions the role has, all resolved through the ItemsService.
 */
export function buildGraphQLSchema(schema: SchemaOverview, access: Access | null, scope: GraphQLScope, extra: { query?: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>>; mutation?: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>> } = {}): GraphQLSchema {
  const collections = Object.values(schema.collections).filter((c) => c.table && c.system === (scope === 'system') && NAME.test(graphqlName(c.collection, scope)) && !c.collection.startsWith('tessera_migrations'));
  const fieldsOf = new Map<string, FieldOverview[]>();
  for (const collection of collections) {
    const fields = readable(access, schema, collection);
    if (fields && fields.length > 0) fieldsOf.set(collection.collection, fields);
  }
  const filterOf = createFilterTypes(schema, fieldsOf, (name) => graphqlName(name, scope));
  const types = new Map<string, GraphQLObjectType>();
  const typeOf = (name: string): GraphQLObjectType => types.get(name)!;
  // A many-to-any item is a union of the allowed collections the role may read (Directus: `<collection>_<field>_union`).
  const anyUnion = (name: string, field: string, allowed: string[]): GraphQLFieldConfig<Record<string, unknown>, GraphQLContext> | null => {
    const relation = findRelation(schema, name, field);
    const members = allowed.filter((entry) => fieldsOf.has(entry));
    if (relation?.type !== 'm2a' || members.length === 0) return null;
    const byType = Object.fromEntries(members.map((entry) => [graphqlName(entry, scope), { collection: entry, primary: schema.collections[entry]!.primary }]));
    const tesseraAny: AnyExtension = { collectionField: relation.collectionField, members: byType };
    return {
      type: new GraphQLUnionType({
        name: `${graphqlName(name, scope)}_${field}_union`,
        types: () => members.map(typeOf),
        resolveType: (value: { [ANY_COLLECTION]?: string }) => (value[ANY_COLLECTION] ? graphqlName(value[ANY_COLLECTION], scope) : undefined),
      }),
      extensions: { tesseraAny },
      // The item is an object when the read named its collection (item:<collection>.…); a bare key otherwise.
      resolve: (parent) => {
        const item = parent[field];
        const collection = parent[relation.collectionField];
        return item && typeof item === 'object' && typeof collection === 'string' && fieldsOf.has(collection) ? { ...item, [ANY_COLLECTION]: collection } : null;
      },
    };
  };
  for (const [name, fields] of fieldsOf) {
    const collection = schema.collections[name]!;
    types.set(
      name,
      new GraphQLObjectType({
        name: graphqlName(name, scope),
        fields: () => {
          const out: Record<string, GraphQLFieldConfig<Record<string, unknown>, GraphQLContext>> = {};
          for (const field of fields) {
            const relation = findRelation(schema, name, field.field);
            if (relation?.type === 'm2o' || relation?.type === 'o2m') {
              const related = relation.related.collection;
              if (!fieldsOf.has(related)) {
                if (relation.type === 'm2o') out[field.field] = { type: GraphQLID, extensions: { tesseraLeaf: { type: field.type } satisfies LeafExtension } };
                continue;
              }
              const tessera: RelationalExtension = { relatedPrimary: relation.related.primary, list: relation.type === 'o2m' };
              out[field.field] = relation.type === 'o2m' ? { type: new GraphQLList(typeOf(related)), args: listArgs(filterOf(related)), extensions: { tessera } } : { type: typeOf(related), extensions: { tessera } };
              continue;
            }
            if (relation?.type === 'm2a') {
              const union = anyUnion(name, field.field, relation.allowed.map((entry) => entry.collection));
              if (union) out[field.field] = union;
              continue;
            }
            out[field.field] = { type: field.primaryKey ? new GraphQLNonNull(GraphQLID) : scalarOf(field), extensions: { tesseraLeaf: { type: field.type } satisfies LeafExtension } };
          }
          return out;
        },
      }),
    );
  }

  const query: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>> = { ...extra.query };
  const mutation: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>> = { ...extra.mutation };
  const subscription: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>> = {};
  for (const [name, fields] of fieldsOf) {
    const type = typeOf(name);
    const gql = graphqlName(name, scope);
    const service = (context: GraphQLContext) => new ItemsService(name, context.items);
    const read = async (context: GraphQLContext, info: GraphQLResolveInfo, keys: ItemKey[] | null, single: boolean) => {
      const items = service(context);
      const query = selectionToQuery(info);
      if (single) return keys ? items.readOne(keys[0]!, query).catch(() => null) : null;
      return keys ? items.readMany(keys, query) : [];
    };
    const tesseraRead: RootReadExtension = {
      read: async (context, info, args) => (await service(context).readByQuery(selectionToQuery(info, listOptions(args)))).data,
      readJson: (context, info, args, shape) => service(context).readShapedJson(selectionToQuery(info, listOptions(args)), shape),
    };
    query[gql] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
      args: listArgs(filterOf(name)),
      resolve: (_root, args: ListArgs, context, info) => tesseraRead.read(context, info, args),
      extensions: { tesseraRead },
    };
    query[`${gql}_by_id`] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: (_root, args: { id: string }, context, info) => read(context, info, [args.id], true),
    };
    // The item's version as REST's ETag sends it, for `if_match`; null for an item the caller cannot read.
    query[`${gql}_etag`] = {
      type: GraphQLString,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: async (_root, args: { id: string }, context) => {
        const items = service(context);
        try {
          const [version] = (await items.readManyVersioned([args.id], { fields: [items.primaryKeyField] })).versions;
          return version ? etagOf(version) : null;
        } catch (error) {
          if (error instanceof ForbiddenError) return null;
          throw error;
        }
      },
    };
    query[`${gql}_aggregated`] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(aggregatedType(gql, fields)))),
      args: { groupBy: { type: new GraphQLList(GraphQLString) }, ...listArgs(filterOf(name)) },
      resolve: async (_root, args: ListArgs & { groupBy?: string[] | null }, context, info) => {
        const base: Query = { ...listOptions(args), aggregate: aggregateOf(info) };
        if (args.groupBy) base.groupBy = args.groupBy;
        const rows = (await service(context).readByQuery(base)).data;
        return rows.map((row) => toAggregated(row, args.groupBy ?? []));
      },
    };

    if (scope === 'items') subscription[`${gql}_mutated`] = mutatedField(gql, type, name);

    const can = (action: 'create' | 'update' | 'delete') => !access || access.permission(name, action) !== null;
    // Input types hold only the fields the role may write with that action (Directus: create_/update_<c>_input).
    const input = (action: 'create' | 'update') => {
      const allowed = access ? access.allowedFields(name, action) : '*';
      const writable = Object.values(collection(schema, name).fields).filter((field) => NAME.test(field.field) && (allowed === '*' || allowed.has(field.field)));
      if (writable.length === 0) return null;
      return new GraphQLInputObjectType({
        name: `${action}_${gql}_input`,
        fields: () => Object.fromEntries(writable.map((field) => [field.field, { type: field.alias || findRelation(schema, name, field.field) ? GraphQLJSON : scalarOf(field) }])),
      });
    };
    const ids = { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLID))) };
    const id = { type: new GraphQLNonNull(GraphQLID) };
    // If-Match as an argument (docs/collaboration.md, "No lost updates"): the version(s) the items must still be at.
    const ifMatch = { type: GraphQLString };
    const ifMatchList = { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) };
    const conditional = <T>(context: GraphQLContext, info: GraphQLResolveInfo | null, tags: string | string[] | null | undefined, write: (expected: ExpectedVersions | undefined) => Promise<T>) => {
      const expected = expectedFromArgument(tags);
      if (!expected) return write(undefined);
      return write(expected).catch(async (error: unknown) => {
        if (error instanceof PreconditionFailedError) await addCurrentItems(service(context), error, info ? selectionToQuery(info) : {});
        throw error;
      });
    };
    const createData = can('create') ? input('create') : null;
    const updateData = can('update') ? input('update') : null;
    if (createData) {
      const data = createData;
      mutation[`create_${gql}_item`] = {
        type,
        args: { data: { type: new GraphQLNonNull(data) } },
        resolve: async (_root, args: { data: Record<string, unknown> }, context, info) => read(context, info, [await service(context).createOne({ ...args.data })], true),
      };
      mutation[`create_${gql}_items`] = {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
        args: { data: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(data))) } },
        resolve: async (_root, args: { data: Record<string, unknown>[] }, context, info) => read(context, info, await service(context).createMany(args.data.map((item) => ({ ...item }))), false),
      };
    }
    if (updateData) {
      const data = updateData;
      mutation[`update_${gql}_item`] = {
        type,
        args: { id, data: { type: new GraphQLNonNull(data) }, if_match: ifMatch },
        resolve: async (_root, args: { id: string; data: Record<string, unknown>; if_match?: string | null }, context, info) =>
          read(context, info, [await conditional(context, info, args.if_match, (expected) => service(context).updateOne(args.id, { ...args.data }, expected))], true),
      };
      mutation[`update_${gql}_items`] = {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
        args: { ids, data: { type: new GraphQLNonNull(data) }, if_match: ifMatchList },
        resolve: async (_root, args: { ids: string[]; data: Record<string, unknown>; if_match?: string[] | null }, context, info) =>
          read(context, info, await conditional(context, info, args.if_match, (expected) => service(context).updateMany(args.ids, { ...args.data }, expected)), false),
      };
    }
    if (can('delete')) {
      mutation[`delete_${gql}_item`] = {
        type: deleteOne,
        args: { id, if_match: ifMatch },
        resolve: async (_root, args: { id: string; if_match?: string | null }, context) => ({ id: await conditional(context, null, args.if_match, (expected) => service(context).deleteOne(args.id, expected)) }),
      };
      mutation[`delete_${gql}_items`] = {
        type: deleteMany,
        args: { ids, if_match: ifMatchList },
        resolve: async (_root, args: { ids: string[]; if_match?: string[] | null }, context) => ({ ids: await conditional(context, null, args.if_match, (expected) => service(context).deleteMany(args.ids, expected)) }),
      };
    }
  }
  if (scope === 'system' && types.has('tessera_users')) {
    query.users_me = {
      type: typeOf('tessera_users'),
      resolve: (_root, _args, context, info) => {
        const user = context.items.accountability.user;
        return user ? new ItemsService('tessera_users', context.items).readOne(user, selectionToQuery(info)) : null;
      },
    };
  }
  if (Object.keys(query).length === 0) query._empty = { type: GraphQLBoolean, resolve: () => null };
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: Object.keys(mutation).length > 0 ? new GraphQLObjectType({ name: 'Mutation', fields: mutation }) : undefined,
    subscription: Object.keys(subscription).length > 0 ? new GraphQLObjectType({ name: 'Subscription', fields: subscription }) : undefined,
  });
}

function collection(schema: SchemaOverview, name: string): CollectionOverview {
  return schema.collections[name]!;
}

const deleteOne = new GraphQLObjectType({ name: 'delete_one', fields: { id: { type: new GraphQLNonNull(GraphQLID) } } });
const deleteMany = new GraphQLObjectType({ name: 'delete_many', fields: { ids: { type: new GraphQLNonNull(new GraphQLList(GraphQLID)) } } });

const AGGREGATES = ['count', 'countDistinct', 'sum', 'sumDistinct', 'avg', 'avgDistinct', 'min', 'max'] as const;

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
