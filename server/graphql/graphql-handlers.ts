import { execute, getOperationAST, GraphQLError, NoSchemaIntrospectionCustomRule, printSchema, specifiedRules, type ValidationRule } from 'graphql';
import type { Context } from 'koa';
import type { AppContext } from '../app-context.ts';
import { TesseraError } from '../errors.ts';
import { cancelReadsOnClose } from '../middleware/cancel-on-close.ts';
import type { GraphQLContext, GraphQLScope } from './build-schema.ts';
import { createDocumentCache, fragmentsOf } from './document-cache.ts';
import { fastReadJson } from './fast-read.ts';
import { queryLimitsRule } from './limits.ts';
import { graphqlRequestParams } from './request-params.ts';
import { createGraphQLSchemaCache } from './schema-cache.ts';

/** A resolver's Tessera error keeps its code (and field) in `extensions`; anything else is not shown. */
export function formatError(error: unknown): GraphQLError {
  if (!(error instanceof GraphQLError)) return new GraphQLError('Internal error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) return error;
  if (original instanceof TesseraError && original.expose) {
    return new GraphQLError(original.message, { nodes: error.nodes, path: error.path, extensions: { ...original.extensions, code: original.code } });
  }
  return new GraphQLError('An unexpected error occurred.', { nodes: error.nodes, path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

/** The error with `extensions.code` set to `code` unless it carries one already. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (typeof error.extensions.code === 'string') return error;
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions: { ...error.extensions, code } });
}

/**
 * A refused document's errors as Directus answers them: graphql-js's own (syntax, validation) folded into
 * one `GraphQL validation error.` whose `extensions.errors` keeps each message and location; errors of
 * Tessera's rules, which carry their own code (the query limits), stay as they are.
 */
export function validationErrors(errors: readonly GraphQLError[]): GraphQLError[] {
  const coded = errors.filter((error) => typeof error.extensions.code === 'string');
  const plain = errors.filter((error) => typeof error.extensions.code !== 'string');
  if (plain.length === 0) return [...coded];
  const details = plain.map((error) => ({ message: error.message, ...(error.locations && { locations: error.locations }) }));
  return [new GraphQLError('GraphQL validation error.', { extensions: { code: 'GRAPHQL_VALIDATION', errors: details } }), ...coded];
}

/** What the GraphQL routes run: a query or mutation of one scope, and the SDL of one scope. */
export interface GraphQLHandlers {
  serve(scope: GraphQLScope): (ctx: Context) => Promise<void>;
  sdl(scope: GraphQLScope): (ctx: Context) => Promise<void>;
}

/** Handlers for `/graphql`, `/graphql/system` and their SDL (graphql-controller.ts loads this module on first use). */
export function createGraphQLHandlers(app: AppContext): GraphQLHandlers {
  const schemaFor = createGraphQLSchemaCache(app);
  const { introspection, maxDepth, maxCost } = app.config.graphql;
  const rules: ValidationRule[] = [queryLimitsRule(maxDepth, maxCost), ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const checkDocument = createDocumentCache([...specifiedRules, ...rules]);

  // graphql-http parses and checks the HTTP request (GET/POST, media types; request-params.ts turns its
  // refusals into 400s); parse, validate and execute
  // run here on our own `graphql` import, so every GraphQL object comes from one module instance.
  const serve = (scope: GraphQLScope) => async (ctx: Context) => {
    const params = await graphqlRequestParams(ctx);
    const accept = ctx.get('Accept');
    ctx.type = accept.includes('application/graphql-response+json') ? 'application/graphql-response+json; charset=utf-8' : 'application/json; charset=utf-8';
    // A document refused before it ran (syntax, validation, limits, variables) says so in the one error shape.
    const refuse = (status: number, errors: readonly GraphQLError[]) => {
      ctx.status = status;
      ctx.body = { errors: errors.map((error) => withCode(formatError(error), 'GRAPHQL_VALIDATION')) };
    };
    const { schema, overview, access } = await schemaFor(ctx.state.accountability, scope);
    const checked = checkDocument(schema, params.query);
    if (checked.errors) return refuse(400, validationErrors(checked.errors));
    const document = checked.document;
    const operation = getOperationAST(document, params.operationName);
    if (!operation) return refuse(400, [new GraphQLError('Unable to detect the operation to run.')]);
    if (operation.operation === 'subscription') return refuse(400, [new GraphQLError('Subscriptions are not served over HTTP.')]);
    if (operation.operation === 'mutation' && ctx.method === 'GET') {
      ctx.set('Allow', 'POST');
      return refuse(405, [new GraphQLError('Send mutations with POST.')]);
    }
    const contextValue: GraphQLContext = { items: { ...app.servicesContext(ctx.state.accountability), schema: overview, access }, http: ctx };
    const variableValues = params.variables ?? undefined;
    const run = async () =>
      (await fastReadJson({ schema, operation, fragments: fragmentsOf(document), variableValues, contextValue })) ??
      (await execute({ schema, document, contextValue, variableValues, operationName: params.operationName ?? undefined }));
    // A query only reads: like a REST GET (whose middleware already does this), its SQL stops when the client goes away.
    const result = operation.operation === 'query' && ctx.method === 'POST' ? await cancelReadsOnClose(ctx, run) : await run();
    if (typeof result === 'string') {
      // PostgreSQL built the whole `data` as JSON text: passed through without parsing, like a REST read.
      ctx.status = 200;
      ctx.body = result;
      return;
    }
    if (!('data' in result) && result.errors) return refuse(400, result.errors);
    // A request that ran answers 200, its field errors (each with its code in `extensions`) beside `data`: the
    // GraphQL-over-HTTP spec's rule for both media types, and Directus's (its suite asserts it, issue 31).
    ctx.status = 200;
    ctx.body = result.errors ? { data: result.data, errors: result.errors.map((error) => formatError(error)) } : { data: result.data };
  };

  const sdl = (scope: GraphQLScope) => async (ctx: Context) => {
    ctx.type = 'text/plain';
    ctx.body = printSchema((await schemaFor(ctx.state.accountability, scope)).schema);
  };
  return { serve, sdl };
}
