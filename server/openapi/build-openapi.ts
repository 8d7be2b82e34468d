import type { Access } from '../permissions/access.ts';
import type { PermissionAction } from '../permissions/types.ts';
import { fieldTypeTraits } from '../schema/field-type-table.ts';
import type { CollectionOverview, SchemaOverview } from '../schema/overview.ts';
import { componentName, fieldSchema, type JsonSchema } from './field-schemas.ts';
import { commonComponents, systemPaths } from './system-paths.ts';

/** What the document is built for: the caller's permissions (null for an administrator) and where it is served. */
export interface OpenApiInput {
  schema: SchemaOverview;
  access: Access | null;
  /** Whether the caller is signed in (public callers get no /users/me). */
  signedIn: boolean;
  publicUrl: string;
  version: string;
  projectName: string | null;
}

type Operation = Record<string, unknown>;

/** System collections served at their own paths by the item routes (`/users` → tessera_users), plus /files. */
const SYSTEM_COLLECTION_PATHS: Record<string, string> = {
  tessera_users: '/users',
  tessera_roles: '/roles',
  tessera_permissions: '/permissions',
  tessera_files: '/files',
  tessera_folders: '/folders',
  tessera_activity: '/activity',
  tessera_revisions: '/revisions',
  tessera_presets: '/presets',
  tessera_settings: '/settings',
  tessera_notifications: '/notifications',
  tessera_shares: '/shares',
  tessera_flows: '/flows',
  tessera_operations: '/operations',
  tessera_dashboards: '/dashboards',
  tessera_panels: '/panels',
  tessera_translations: '/translations',
  tessera_versions: '/versions',
  tessera_webhooks: '/webhooks',
  tessera_extensions: '/extensions',
};

const ref = (name: string) => `#/components/schemas/${name}`;
const LIST_PARAMS = ['Fields', 'Limit', 'Offset', 'Page', 'Sort', 'Filter', 'Search', 'Meta'].map((name) => ({ $ref: `#/components/parameters/${name}` }));
const ONE_PARAMS = [{ $ref: '#/components/parameters/Fields' }];

function dataResponse(description: string, data: JsonSchema, withMeta = false): Operation {
  const properties: Record<string, unknown> = { data };
  if (withMeta) properties.meta = { $ref: ref('x-metadata') };
  return { description, content: { 'application/json': { schema: { type: 'object', properties } } } };
}

function jsonBody(schema: JsonSchema): Operation {
  return { required: true, content: { 'application/json': { schema } } };
}

const ERRORS = {
  '400': { $ref: '#/components/responses/BadRequestError' },
  '401': { $ref: '#/components/responses/UnauthorizedError' },
  '403': { $ref: '#/components/responses/ForbiddenError' },
};

/**
 * The operations the caller may run on one collection, at Directus's paths and with its operation ids
 * (`readItemsArticles`, `readSingleItemsArticles`, … for /items; `readUsers`, … for system collections).
 */
function collectionPaths(collection: CollectionOverview, base: string, name: string, can: (action: PermissionAction) => boolean): Record<string, Record<string, Operation>> {
  const tag = name;
  const item = { $ref: ref(name) };
  const primary = collection.fields[collection.primary];
  const idSchema = primary && fieldTypeTraits(primary.type).primaryKey === 'identity' ? { anyOf: [{ type: 'integer' }, { type: 'string' }] } : { type: 'string' };
  const idParam = { name: 'id', in: 'path', required: true, description: `Primary key of the ${collection.collection} item.`, schema: idSchema };
  const list: Record<string, Operation> = {};
  const one: Record<string, Operation> = {};
  if (collection.singleton) {
    if (can('read')) list.get = { operationId: `read${name}`, summary: `Read the ${collection.collection} singleton.`, tags: [tag], parameters: ONE_PARAMS, responses: { '200': dataResponse('The singleton.', item), ...ERRORS } };
    if (can('update')) list.patch = { operationId: `update${name}`, summary: `Update the ${collection.collection} singleton.`, tags: [tag], parameters: ONE_PARAMS, requestBody: jsonBody(item), responses: { '200': dataResponse('The singleton.', item), ...ERRORS } };
    return Object.keys(list).length > 0 ? { [base]: list } : {};
  }
  if (can('read')) {
    list.get = { operationId: `read${name}`, summary: `List ${collection.collection} items.`, tags: [tag], parameters: LIST_PARAMS, responses: { '200': dataResponse('The items.', { type: 'array', items: item }, true), ...ERRORS } };
    one.get = { operationId: `readSingle${name}`, summary: `Read one ${collection.collection} item.`, tags: [tag], parameters: [idParam, ...ONE_PARAMS], responses: { '200': dataResponse('The item.', item), ...ERRORS, '404': { $ref: '#/components/responses/NotFoundError' } } };
  }
  if (can('create')) {
    list.post = { operationId: `create${name}`, summary: `Create one or more ${collection.collection} items.`, tags: [tag], parameters: ONE_PARAMS, requestBody: jsonBody({ oneOf: [{ type: 'array', items: item }, item] }), responses: { '200': dataResponse('The created items.', { oneOf: [{ type: 'array', items: item }, item] }), ...ERRORS } };
  }
  if (can('update')) {
    list.patch = { operationId: `update${name}`, summary: `Update several ${collection.collection} items.`, tags: [tag], parameters: ONE_PARAMS, requestBody: jsonBody({ oneOf: [{ type: 'array', items: item }, { type: 'object', required: ['data'], properties: { keys: { type: 'array', items: idSchema }, query: { $ref: ref('Query') }, data: item } }] }), responses: { '200': dataResponse('The updated items.', { type: 'array', items: item }), ...ERRORS } };
    one.patch = { operationId: `updateSingle${name}`, summary: `Update one ${collection.collection} item.`, tags: [tag], parameters: [idParam, ...ONE_PARAMS], requestBody: jsonBody(item), responses: { '200': dataResponse('The updated item.', item), ...ERRORS, '404': { $ref: '#/components/responses/NotFoundError' } } };
  }
  if (can('delete')) {
    list.delete = { operationId: `delete${name}`, summary: `Delete several ${collection.collection} items.`, tags: [tag], requestBody: jsonBody({ oneOf: [{ type: 'array', items: idSchema }, { type: 'object', properties: { keys: { type: 'array', items: idSchema }, query: { $ref: ref('Query') } } }] }), responses: { '204': { description: 'Deleted.' }, ...ERRORS } };
    one.delete = { operationId: `deleteSingle${name}`, summary: `Delete one ${collection.collection} item.`, tags: [tag], parameters: [idParam], responses: { '204': { description: 'Deleted.' }, ...ERRORS, '404': { $ref: '#/components/responses/NotFoundError' } } };
  }
  const out: Record<string, Record<string, Operation>> = {};
  if (Object.keys(list).length > 0) out[base] = list;
  if (Object.keys(one).length > 0) out[`${base}/{id}`] = one;
  return out;
}

/**
 * The OpenAPI 3.1 document of what this caller may do: only the collections it may use, only the fields it may
 * read (as `components.schemas`, relations as `$ref`s to collections it may read), only the operations it has.
 */
export function buildOpenApi(input: OpenApiInput): JsonSchema {
  const { schema, access } = input;
  const readableFields = (collection: CollectionOverview): '*' | ReadonlySet<string> | null => {
    if (!access) return '*';
    if (!access.permission(collection.collection, 'read')) return null;
    return access.readPolicy().allowedFields(collection.collection);
  };
  const can = (collection: string) => (action: PermissionAction) => !access || access.permission(collection, action) !== null;
  const served = Object.values(schema.collections)
    .filter((collection) => collection.table && (!collection.system || SYSTEM_COLLECTION_PATHS[collection.collection]))
    .sort((a, b) => a.collection.localeCompare(b.collection));
  const names = new Map<string, string>();
  for (const collection of served) if (readableFields(collection) !== null) names.set(collection.collection, componentName(collection.collection, collection.system));
  const refOf = (collection: string) => (names.has(collection) ? ref(names.get(collection)!) : null);

  const schemas: Record<string, JsonSchema> = { ...commonComponents.schemas };
  const paths: Record<string, Record<string, Operation>> = {};
  const tags: { name: string; description: string }[] = [];
  for (const collection of served) {
    const allowed = readableFields(collection);
    const usable = ['read', 'create', 'update', 'delete'].some((action) => can(collection.collection)(action as PermissionAction));
    if (!usable) continue;
    const name = componentName(collection.collection, collection.system);
    const properties: Record<string, JsonSchema> = {};
    for (const field of Object.values(collection.fields)) {
      if (allowed === null || (allowed !== '*' && !allowed.has(field.field))) continue;
      const out = fieldSchema(schema, collection.collection, field, refOf);
      if (out) properties[field.field] = out;
    }
    schemas[name] = { type: 'object', 'x-collection': collection.collection, properties };
    const base = collection.system ? SYSTEM_COLLECTION_PATHS[collection.collection]! : `/items/${collection.collection}`;
    Object.assign(paths, collectionPaths(collection, base, name, can(collection.collection)));
    tags.push({ name, description: collection.system ? `The ${collection.collection} system collection.` : `Items of ${collection.collection}.` });
  }
  Object.assign(paths, systemPaths({ signedIn: input.signedIn, usersRef: names.has('tessera_users') ? ref(names.get('tessera_users')!) : null }));

  return {
    openapi: '3.1.0',
    info: { title: input.projectName ? `${input.projectName} (Tessera)` : 'Tessera', version: input.version, description: 'The API as the caller of this request may use it: its collections, fields and operations only.' },
    servers: [{ url: input.publicUrl }],
    tags,
    paths,
    components: { ...commonComponents, schemas },
    security: [{ Auth: [] }, {}],
  };
}
