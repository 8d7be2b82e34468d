import Router from '@koa/router';
import { GraphQLError, NoSchemaIntrospectionCustomRule, printSchema, type ValidationRule } from 'graphql';
import { createHandler, type Handler } from 'graphql-http';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { TesseraError } from '../errors.ts';
import type { GraphQLContext, GraphQLScope } from './build-schema.ts';
import { queryLimitsRule } from './limits.ts';
import { createGraphQLSchemaCache } from './schema-cache.ts';

/** A resolver's Tessera error keeps its code (and field) in `extensions`; anything else is not shown. */
function formatError(error: unknown): GraphQLError {
  if (!(error instanceof GraphQLError)) return new GraphQLError('Internal error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) return error;
  if (original instanceof TesseraError && original.expose) {
    return new GraphQLError(original.message, { nodes: error.nodes, path: error.path, extensions: { ...original.extensions, code: original.code } });
  }
  return new GraphQLError('An unexpected error occurred.', { nodes: error.nodes, path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** `/graphql` (user collections), `/graphql/system`, and their SDL at `/server/specs/graphql[/system]`. */
export function graphqlController(app: AppContext): Router {
  const router = new Router();
  const schemaFor = createGraphQLSchemaCache(app);
  const { introspection, maxDepth, maxCost } = app.config.graphql;
  const rules: ValidationRule[] = [queryLimitsRule(maxDepth, maxCost), ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];

  const handlers = new Map<GraphQLScope, Handler<Context, undefined>>();
  for (const scope of ['items', 'system'] as const) {
    handlers.set(
      scope,
      createHandler<Context, undefined, GraphQLContext>({
        schema: async (req) => (await schemaFor(req.raw.state.accountability, scope)).schema,
        context: async (req) => {
          const { overview, access } = await schemaFor(req.raw.state.accountability, scope);
          return { items: { ...app.servicesContext(req.raw.state.accountability), schema: overview, access } };
        },
        validationRules: rules,
        formatError,
      }),
    );
  }

  const serve = (scope: GraphQLScope) => async (ctx: Context) => {
    const [body, init] = await handlers.get(scope)!({
      url: ctx.url,
      method: ctx.method,
      headers: ctx.headers,
      body: (ctx.request.body as Record<string, unknown> | undefined) ?? null,
      raw: ctx,
      context: undefined,
    });
    let status = init.status;
    // A request that never ran (unparsable, or refused by validation: unknown field, depth, cost) is a 400.
    if (status === 200 && typeof body === 'string' && body.startsWith('{"errors"')) status = 400;
    ctx.status = status;
    for (const [name, value] of Object.entries(init.headers ?? {})) if (value !== undefined) ctx.set(name, value);
    ctx.body = body;
  };

  router.get('/graphql', serve('items'));
  router.post('/graphql', serve('items'));
  router.get('/graphql/system', serve('system'));
  router.post('/graphql/system', serve('system'));

  const sdl = (scope: GraphQLScope) => async (ctx: Context) => {
    ctx.type = 'text/plain';
    ctx.body = printSchema((await schemaFor(ctx.state.accountability, scope)).schema);
  };
  router.get('/server/specs/graphql', sdl('items'));
  router.get('/server/specs/graphql/system', sdl('system'));
  return router;
}
