import { GraphQLEnumType, GraphQLID, GraphQLNonNull, GraphQLObjectType, Kind, type FieldNode, type GraphQLFieldConfig, type GraphQLResolveInfo } from 'graphql';
import { GraphQLError } from 'graphql';
import { selectedFields } from './selection-to-query.ts';

/** Directus's `EventEnum`: which change a `<collection>_mutated` payload reports. */
export const EventEnum = new GraphQLEnumType({ name: 'EventEnum', values: { create: { value: 'create' }, update: { value: 'update' }, delete: { value: 'delete' } } });

export type MutationEvent = 'create' | 'update' | 'delete';

/** One `<collection>_mutated` payload: the key, the event, and the item as the subscriber may read it (null on delete). */
export interface MutatedPayload {
  key: string | number;
  event: MutationEvent;
  data: Record<string, unknown> | null;
}

/** How a subscription resolver reaches the realtime hub (set by the graphql-ws endpoint, absent over HTTP). */
export type SubscribeToChanges = (collection: string, event: MutationEvent | null, fields: string[]) => AsyncIterableIterator<MutatedPayload>;

/** The fields the `data { … }` selection of a `_mutated` subscription asks for (REST `fields` form). */
function dataFields(info: GraphQLResolveInfo, itemType: GraphQLObjectType): string[] {
  const data = info.fieldNodes[0]!.selectionSet?.selections.find((node): node is FieldNode => node.kind === Kind.FIELD && node.name.value === 'data');
  return data?.selectionSet ? selectedFields(data.selectionSet, itemType, info) : [];
}

/** `<collection>_mutated(event: EventEnum): <collection>_mutated` for one readable collection. */
export function mutatedField(gql: string, itemType: GraphQLObjectType, collection: string): GraphQLFieldConfig<unknown, { subscribe?: SubscribeToChanges }> {
  const type = new GraphQLObjectType({
    name: `${gql}_mutated`,
    fields: { key: { type: new GraphQLNonNull(GraphQLID) }, event: { type: EventEnum }, data: { type: itemType } },
  });
  return {
    type,
    args: { event: { type: EventEnum } },
    subscribe: (_root, args: { event?: MutationEvent | null }, context, info) => {
      if (!context.subscribe) throw new GraphQLError('Subscriptions are served over WebSockets (graphql-ws) at /graphql.');
      return context.subscribe(collection, args.event ?? null, dataFields(info, itemType));
    },
    resolve: (payload: unknown) => payload,
  };
}
