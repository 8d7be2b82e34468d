import { GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfig } from 'graphql';
import type { AppContext } from '../app-context.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { CollectionsService } from '../services/collections-service.ts';
import { FieldsService } from '../services/fields-service.ts';
import { RelationsService } from '../services/relations-service.ts';
import type { GraphQLContext } from './build-schema.ts';
import { GraphQLJSON } from './scalars.ts';

/** The system collections /graphql/system serves through the schema services (Directus's own query fields), not as plain rows. */
export const SCHEMA_COLLECTIONS = ['tessera_collections', 'tessera_fields', 'tessera_relations'] as const;

const json = (keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, { type: GraphQLJSON }]));

// The `schema` part of each answer, as the services build it (services/schema/*-response.ts).
const FIELD_SCHEMA = ['name', 'table', 'data_type', 'default_value', 'max_length', 'numeric_precision', 'numeric_scale', 'is_nullable', 'is_unique', 'is_indexed', 'is_primary_key', 'has_auto_increment', 'foreign_key_table', 'foreign_key_column'];
const RELATION_SCHEMA = ['table', 'column', 'foreign_key_table', 'foreign_key_column', 'constraint_name', 'on_update', 'on_delete'];
const RELATION_META = ['id', 'many_collection', 'many_field', 'one_collection', 'one_field', 'one_collection_field', 'one_allowed_collections', 'junction_field', 'sort_field', 'one_deselect_action', 'system'];

/** A `meta` type: the metadata collection's columns (and `system`), each as JSON, so any of them can be selected. */
function metaType(overview: SchemaOverview, collection: string, name: string, extra: readonly string[] = []): GraphQLObjectType {
  const columns = Object.values(overview.collections[collection]?.fields ?? {}).filter((field) => !field.alias && /^[_A-Za-z][_0-9A-Za-z]*$/.test(field.field)).map((field) => field.field);
  return new GraphQLObjectType({ name, fields: json([...new Set([...columns, ...extra, 'system'])]) });
}

type Fields = Record<string, GraphQLFieldConfig<unknown, GraphQLContext>>;

/**
 * `collections`, `fields` and `relations` of /graphql/system, with their `_by_name` and `_in_collection`
 * variants, answered by the same services as REST's /collections, /fields and /relations (and so with
 * their permission rules): `{ collection field type meta { … } schema { … } }` as Directus types them.
 */
export function schemaQueries(app: AppContext, overview: SchemaOverview): Fields {
  const services = (context: GraphQLContext) => {
    const services = app.servicesContext(context.items.accountability);
    return { collections: new CollectionsService(services, app.schema), fields: new FieldsService(services, app.schema), relations: new RelationsService(services, app.schema) };
  };
  const collection = new GraphQLObjectType({
    name: 'collections',
    fields: { collection: { type: GraphQLString }, meta: { type: metaType(overview, 'tessera_collections', 'collections_meta') }, schema: { type: new GraphQLObjectType({ name: 'collections_schema', fields: json(['name', 'comment']) }) } },
  });
  const field = new GraphQLObjectType({
    name: 'fields',
    fields: {
      collection: { type: GraphQLString },
      field: { type: GraphQLString },
      type: { type: GraphQLString },
      meta: { type: metaType(overview, 'tessera_fields', 'fields_meta') },
      schema: { type: new GraphQLObjectType({ name: 'fields_schema', fields: json(FIELD_SCHEMA) }) },
    },
  });
  const relation = new GraphQLObjectType({
    name: 'relations',
    fields: {
      collection: { type: GraphQLString },
      field: { type: GraphQLString },
      related_collection: { type: GraphQLString },
      meta: { type: metaType(overview, 'tessera_relations', 'relations_meta', RELATION_META) },
      schema: { type: new GraphQLObjectType({ name: 'relations_schema', fields: json(RELATION_SCHEMA) }) },
    },
  });
  const list = (type: GraphQLObjectType) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type)));
  const name = { type: new GraphQLNonNull(GraphQLString) };
  return {
    collections: { type: list(collection), resolve: (_root, _args, context) => services(context).collections.readAll() },
    collections_by_name: { type: collection, args: { name }, resolve: (_root, args: { name: string }, context) => services(context).collections.readOne(args.name) },
    fields: { type: list(field), resolve: (_root, _args, context) => services(context).fields.readAll() },
    fields_in_collection: { type: list(field), args: { collection: name }, resolve: (_root, args: { collection: string }, context) => services(context).fields.readAllInCollection(args.collection) },
    fields_by_name: { type: field, args: { collection: name, field: name }, resolve: (_root, args: { collection: string; field: string }, context) => services(context).fields.readOne(args.collection, args.field) },
    relations: { type: list(relation), resolve: (_root, _args, context) => services(context).relations.readAll() },
    relations_in_collection: { type: list(relation), args: { collection: name }, resolve: (_root, args: { collection: string }, context) => services(context).relations.readAllInCollection(args.collection) },
    relations_by_name: { type: relation, args: { collection: name, field: name }, resolve: (_root, args: { collection: string; field: string }, context) => services(context).relations.readOne(args.collection, args.field) },
  };
}
