import {
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLInputType,
  type GraphQLResolveInfo,
} from 'graphql';
import { PreconditionFailedError } from '../errors.ts';
import type { Access } from '../permissions/access.ts';
import { findRelation } from '../query/schema-lookup.ts';
import type { FieldOverview, SchemaOverview } from '../schema/overview.ts';
import { expectedFromArgument, type ExpectedVersions } from '../services/items/expected-versions.ts';
import { ItemsService, type ItemKey } from '../services/items/items-service.ts';
import { addCurrentItems } from '../services/items/stale-items.ts';
import type { GraphQLContext } from './build-schema.ts';
import { GraphQLJSON } from './scalars.ts';
import { selectionToQuery } from './selection-to-query.ts';

const NAME = /^(?!__)[_A-Za-z][_0-9A-Za-z]*$/;

/** What the mutations of one collection are built from. */
export interface CollectionMutationParts {
  schema: SchemaOverview;
  access: Access | null;
  /** The collection, and its GraphQL name. */
  name: string;
  gql: string;
  type: GraphQLObjectType;
  singleton: boolean;
  scalarOf: (field: FieldOverview) => GraphQLInputType;
  /** Reads back written items with the mutation's selection (one item or null when `single`). */
  read: (context: GraphQLContext, info: GraphQLResolveInfo, keys: ItemKey[] | null, single: boolean) => Promise<unknown>;
}

const deleteOne = new GraphQLObjectType({ name: 'delete_one', fields: { id: { type: new GraphQLNonNull(GraphQLID) } } });
const deleteMany = new GraphQLObjectType({ name: 'delete_many', fields: { ids: { type: new GraphQLNonNull(new GraphQLList(GraphQLID)) } } });

type Fields = Record<string, GraphQLFieldConfig<unknown, GraphQLContext>>;

/**
 * The mutations the role may run on one collection (Directus's names): `create_<c>_item(s)`,
 * `update_<c>_item(s)`, `update_<c>_batch` (each item with its key), `delete_<c>_item(s)`; a singleton has
 * only `update_<c>`, which creates its item the first time. All go through the ItemsService.
 */
export function collectionMutations(parts: CollectionMutationParts): Fields {
  const { schema, access, name, gql, type, read } = parts;
  const service = (context: GraphQLContext) => new ItemsService(name, context.items);
  const can = (action: 'create' | 'update' | 'delete') => !access || access.permission(name, action) !== null;
  // Input types hold only the fields the role may write with that action (Directus: create_/update_<c>_input).
  const input = (action: 'create' | 'update') => {
    const allowed = access ? access.allowedFields(name, action) : '*';
    const writable = Object.values(schema.collections[name]!.fields).filter((field) => NAME.test(field.field) && (allowed === '*' || allowed.has(field.field)));
    if (writable.length === 0) return null;
    return new GraphQLInputObjectType({
      name: `${action}_${gql}_input`,
      fields: () => Object.fromEntries(writable.map((field) => [field.field, { type: field.alias || findRelation(schema, name, field.field) ? GraphQLJSON : parts.scalarOf(field) }])),
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
  const mutation: Fields = {};
  const updateData = can('update') ? input('update') : null;
  if (parts.singleton) {
    if (updateData) {
      mutation[`update_${gql}`] = {
        type,
        args: { data: { type: new GraphQLNonNull(updateData) }, if_match: ifMatch },
        resolve: async (_root, args: { data: Record<string, unknown>; if_match?: string | null }, context, info) => {
          await conditional(context, info, args.if_match, (expected) => service(context).upsertSingleton({ ...args.data }, expected));
          return service(context).readSingleton(selectionToQuery(info));
        },
      };
    }
    return mutation;
  }
  const createData = can('create') ? input('create') : null;
  if (createData) {
    mutation[`create_${gql}_item`] = {
      type,
      args: { data: { type: new GraphQLNonNull(createData) } },
      resolve: async (_root, args: { data: Record<string, unknown> }, context, info) => read(context, info, [await service(context).createOne({ ...args.data })], true),
    };
    mutation[`create_${gql}_items`] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
      args: { data: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(createData))) } },
      resolve: async (_root, args: { data: Record<string, unknown>[] }, context, info) => read(context, info, await service(context).createMany(args.data.map((item) => ({ ...item }))), false),
    };
  }
  if (updateData) {
    mutation[`update_${gql}_item`] = {
      type,
      args: { id, data: { type: new GraphQLNonNull(updateData) }, if_match: ifMatch },
      resolve: async (_root, args: { id: string; data: Record<string, unknown>; if_match?: string | null }, context, info) =>
        read(context, info, [await conditional(context, info, args.if_match, (expected) => service(context).updateOne(args.id, { ...args.data }, expected))], true),
    };
    mutation[`update_${gql}_items`] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
      args: { ids, data: { type: new GraphQLNonNull(updateData) }, if_match: ifMatchList },
      resolve: async (_root, args: { ids: string[]; data: Record<string, unknown>; if_match?: string[] | null }, context, info) =>
        read(context, info, await conditional(context, info, args.if_match, (expected) => service(context).updateMany(args.ids, { ...args.data }, expected)), false),
    };
    // Each item names its own key and changes (REST's PATCH with an array).
    mutation[`update_${gql}_batch`] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
      args: { data: { type: new GraphQLList(new GraphQLNonNull(updateData)) } },
      resolve: async (_root, args: { data?: Record<string, unknown>[] | null }, context, info) => read(context, info, await service(context).updateBatch((args.data ?? []).map((item) => ({ ...item }))), false),
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
  return mutation;
}
