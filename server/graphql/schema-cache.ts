import type { GraphQLSchema } from 'graphql';
import type { Accountability } from '../auth/accountability.ts';
import type { AppContext } from '../app-context.ts';
import { resolveAccess, type Access } from '../permissions/access.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { buildGraphQLSchema, type GraphQLScope } from './build-schema.ts';
import { systemFields } from './system-fields.ts';

const ADMIN = {};

/**
 * GraphQL schemas per role, keyed by the identity of the schema overview and of the role's permission set:
 * both caches hand out new objects after an invalidation (local, or from another instance through Redis),
 * so a changed schema or permission builds a new GraphQL schema and the old one is collected.
 */
export function createGraphQLSchemaCache(app: AppContext): (accountability: Accountability, scope: GraphQLScope) => Promise<{ schema: GraphQLSchema; overview: SchemaOverview; access: Access | null }> {
  const built = new WeakMap<SchemaOverview, WeakMap<object, Map<GraphQLScope, GraphQLSchema>>>();
  return async (accountability, scope) => {
    const overview = await app.schema.get();
    const access = await resolveAccess({ accountability, db: app.database.kysely(), permissions: app.permissions }, overview);
    const build = () => buildGraphQLSchema(overview, access, scope, scope === 'system' ? systemFields(app, overview, access) : {});
    // Share sessions read only what their share reaches: their schema is not shared with the role's.
    if (accountability.share) return { schema: build(), overview, access };
    const key = access ? await app.permissions.forRole(accountability.role, accountability.app) : ADMIN;
    let perRole = built.get(overview);
    if (!perRole) built.set(overview, (perRole = new WeakMap()));
    let schemas = perRole.get(key);
    if (!schemas) perRole.set(key, (schemas = new Map()));
    let schema = schemas.get(scope);
    if (!schema) schemas.set(scope, (schema = build()));
    return { schema, overview, access };
  };
}
