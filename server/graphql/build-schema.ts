import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  type GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
} from 'graphql';
import type Koa from 'koa';
import type { Access } from '../permissions/access.ts';
import { findRelation } from '../query/schema-lookup.ts';
import { fieldTypeTraits, type GraphQLScalarName } from '../schema/field-type-table.ts';
import type { CollectionOverview, FieldOverview, SchemaOverview } from '../schema/overview.ts';
import { ItemsService, type ItemKey } from '../services/items/items-service.ts';
import type { ItemsContext } from '../services/items/items-service.ts';
import { etagOf } from '../services/items/expected-versions.ts';
import { ForbiddenError } from '../errors.ts';
import { aggregatedField } from './aggregate-fields.ts';
import { CURSOR_ARGS, nextCursorField, nextCursorName, readListWithCursor } from './cursor-fields.ts';
import { createFilterTypes } from './filter-types.ts';
import { functionField, functionsType } from './function-fields.ts';
import type { RootReadExtension } from './fast-read.ts';
import type { LeafExtension } from './json-shape.ts';
import { GraphQLJSON } from './scalars.ts';
import { SCHEMA_COLLECTIONS } from './schema-queries.ts';
import { collectionMutations } from './mutation-fields.ts';
import { mutatedField, type SubscribeToChanges } from './subscription-fields.ts';
import { listOptions, selectionToQuery, type AnyExtension, type ListArgs, type RelationalExtension } from './selection-to-query.ts';

/** What every resolver gets: the items context of the caller (its accountability, database and Access). */
export interface GraphQLContext {
  items: ItemsContext;
  /** Set on the graphql-ws endpoint: where `<collection>_mutated` subscriptions get their events. */
  subscribe?: SubscribeToChanges;
  /** Set over HTTP: the request, whose cookies the cookie and session auth modes read and set. */
  http?: Koa.Context;
  [key: PropertyKey]: unknown;
}

/** Which collections a schema serves: user collections (/graphql) or system ones (/graphql/system). */
export type GraphQLScope = 'items' | 'system';

// A GraphQL name, and not one of the `__…` names GraphQL reserves for introspection (a field `__note` would
// otherwise fail the whole schema: every query of the project a 400).
const NAME = /^(?!__)[_A-Za-z][_0-9A-Za-z]*$/;
/** Where a many-to-any item carries its collection to the union's resolveType. */
const ANY_COLLECTION = Symbol('collection');

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
  const served = (name: string) => !name.startsWith('tessera_migrations') && !(SCHEMA_COLLECTIONS as readonly string[]).includes(name);
  const collections = Object.values(schema.collections).filter((c) => c.table && c.system === (scope === 'system') && NAME.test(graphqlName(c.collection, scope)) && served(c.collection));
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
          const names = new Set(fields.map((field) => field.field));
          for (const field of fields) {
            const relation = findRelation(schema, name, field.field);
            const functions = functionsType(schema, name, field);
            if (functions && !names.has(`${field.field}_func`) && (relation?.type !== 'o2m' || fieldsOf.has(relation.related.collection))) {
              out[`${field.field}_func`] = functionField(functions, field.field);
            }
            if (relation?.type === 'm2o' || relation?.type === 'o2m') {
              const related = relation.related.collection;
              if (!fieldsOf.has(related)) {
                if (relation.type === 'm2o') out[field.field] = { type: GraphQLID, extensions: { tesseraLeaf: { type: field.type } satisfies LeafExtension } };
                continue;
              }
              const tessera: RelationalExtension = { relatedPrimary: relation.related.primary, list: relation.type === 'o2m' };
              // A many-to-one takes the list arguments too, as in Directus (selection-to-query.ts: what applies to one item).
              out[field.field] = relation.type === 'o2m' ? { type: new GraphQLList(typeOf(related)), args: { ...listArgs(filterOf(related)), ...CURSOR_ARGS }, extensions: { tessera } } : { type: typeOf(related), args: listArgs(filterOf(related)), extensions: { tessera } };
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
      read: async (context, info, args) => (await service(context).readByQuery(selectionToQuery(info, listOptions(args, filterOf(name))))).data,
      readJson: (context, info, args, shape) => service(context).readShapedJson(selectionToQuery(info, listOptions(args, filterOf(name))), shape),
    };
    const singleton = schema.collections[name]!.singleton;
    // A singleton reads as its one item (null before it is saved), without list arguments or keys, as in Directus.
    query[gql] = singleton
      ? { type, resolve: (_root, _args, context, info) => service(context).readSingleton(selectionToQuery(info)) }
      : {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
          args: { ...listArgs(filterOf(name)), ...CURSOR_ARGS },
          resolve: (_root, args: ListArgs, context, info) =>
            readListWithCursor(info, args, (nextCursor) => service(context).readByQuery({ ...selectionToQuery(info, listOptions(args, filterOf(name))), ...(nextCursor && { nextCursor }) })),
          extensions: { tesseraRead },
        };
    query[`${gql}_aggregated`] = aggregatedField(name, gql, fields, listArgs(filterOf(name)), (args) => listOptions(args, filterOf(name)));
    if (scope === 'items') subscription[`${gql}_mutated`] = mutatedField(gql, type, name);
    Object.assign(mutation, collectionMutations({ schema, access, name, gql, type, singleton, scalarOf, read }));
    if (singleton) continue;
    query[nextCursorName(gql)] = nextCursorField(gql, { ...listArgs(filterOf(name)), ...CURSOR_ARGS }, (context, args) =>
      service(context).readByQuery({ ...listOptions(args, filterOf(name)), fields: [schema.collections[name]!.primary], nextCursor: true }),
    );
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

