import { GraphQLBoolean, GraphQLEnumType, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfig } from 'graphql';
import type Koa from 'koa';
import type { AppContext } from '../app-context.ts';
import { AuthService, type AuthTokens } from '../auth/auth-service.ts';
import { assertSameSiteCredentialPost } from '../auth/login-csrf.ts';
import { AUTH_MODES, clearModeCookie, deliverTokens, readRefreshToken, type AuthMode } from '../auth/sessions-modes.ts';
import { InvalidPayloadError } from '../errors.ts';
import type { Access } from '../permissions/access.ts';
import type { SchemaOverview } from '../schema/overview.ts';
import { checkHealth, healthFor } from '../server-health.ts';
import { schemaQueries } from './schema-queries.ts';
import { SettingsService } from '../services/settings-service.ts';
import type { GraphQLContext } from './build-schema.ts';
import { GraphQLJSON } from './scalars.ts';

const PUBLIC_SETTINGS = ['project_name', 'project_descriptor', 'project_url', 'project_color', 'project_logo', 'public_note', 'default_language', 'default_appearance'] as const;

const authTokens = new GraphQLObjectType({
  name: 'auth_tokens',
  fields: {
    access_token: { type: GraphQLString },
    // Milliseconds, as a string: Directus types it as its BigInt scalar, which serialises to one.
    expires: { type: GraphQLString, resolve: (tokens: { expires?: number | null }) => (tokens.expires == null ? null : String(tokens.expires)) },
    refresh_token: { type: GraphQLString },
  },
});

/** Directus's `auth_mode` enum: how auth_login and auth_refresh hand tokens over (server/auth/sessions-modes.ts). */
const authMode = new GraphQLEnumType({ name: 'auth_mode', values: Object.fromEntries(AUTH_MODES.map((mode) => [mode, { value: mode }])) });

/** The HTTP request a cookie or session mode reads and sets its cookie on; those modes need one (not over graphql-ws). */
function cookieRequest(context: GraphQLContext, mode: AuthMode): Koa.Context | null {
  if (mode === 'json') return null;
  if (!context.http) throw new InvalidPayloadError(`"mode": ${mode} mode needs an HTTP request; use json over a WebSocket.`, { field: 'mode' });
  return context.http;
}

/** The refresh token of a refresh or logout: the argument, else (cookie and session modes) the mode's cookie. */
function refreshTokenOf(http: Koa.Context | null, argument: string | null | undefined, mode: AuthMode): string {
  if (http) return readRefreshToken(http, argument ?? undefined, mode);
  if (!argument) throw new InvalidPayloadError('"refresh_token" is required in json mode.', { field: 'refresh_token' });
  return argument;
}

/** `/graphql/system`'s own fields: `server_info`, and the auth mutations (JSON mode: tokens in the answer). */
export function systemFields(app: AppContext, overview: SchemaOverview, access: Access | null): { query: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>>; mutation: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>> } {
  const auth = (context: GraphQLContext) => new AuthService(app.servicesContext(context.items.accountability));
  const deliver = (http: Koa.Context | null, tokens: AuthTokens, mode: AuthMode) => (http ? deliverTokens(http, app, tokens, mode) : tokens);
  return {
    query: {
      ...Object.fromEntries(Object.entries(schemaQueries(app, overview)).filter(([name]) => !access || access.permission(`tessera_${name.replace(/_(by_name|in_collection)$/, '')}`, 'read'))),
      // Directus's system schema answers it; clients use it as a liveness check.
      server_ping: { type: GraphQLString, resolve: () => 'pong' },
      // What GET /server/health answers (Directus types it as JSON too).
      server_health: { type: GraphQLJSON, resolve: async (_root, _args, context) => healthFor(await checkHealth(app), context.items.accountability.admin === true) },
      server_info: {
        type: new GraphQLObjectType({ name: 'server_info', fields: { project: { type: GraphQLJSON } } }),
        resolve: async (_root, _args, context) => {
          const settings = await new SettingsService(app.servicesContext(context.items.accountability)).read();
          return { project: Object.fromEntries(PUBLIC_SETTINGS.map((key) => [key, settings?.[key] ?? null])) };
        },
      },
    },
    mutation: {
      auth_login: {
        type: authTokens,
        args: { email: { type: new GraphQLNonNull(GraphQLString) }, password: { type: new GraphQLNonNull(GraphQLString) }, mode: { type: authMode }, otp: { type: GraphQLString } },
        resolve: async (_root, args: { email: string; password: string; mode?: AuthMode | null; otp?: string | null }, context) => {
          const mode = args.mode ?? 'json';
          const http = cookieRequest(context, mode);
          if (http) assertSameSiteCredentialPost(http, app);
          return deliver(http, await auth(context).login({ email: args.email, password: args.password, otp: args.otp ?? null }), mode);
        },
      },
      auth_refresh: {
        type: authTokens,
        args: { refresh_token: { type: GraphQLString }, mode: { type: authMode } },
        resolve: async (_root, args: { refresh_token?: string | null; mode?: AuthMode | null }, context) => {
          const mode = args.mode ?? 'json';
          const http = cookieRequest(context, mode);
          if (http) assertSameSiteCredentialPost(http, app);
          return deliver(http, await auth(context).refresh(refreshTokenOf(http, args.refresh_token, mode)), mode);
        },
      },
      auth_logout: {
        type: GraphQLBoolean,
        args: { refresh_token: { type: GraphQLString }, mode: { type: authMode } },
        resolve: async (_root, args: { refresh_token?: string | null; mode?: AuthMode | null }, context) => {
          const mode = args.mode ?? 'json';
          const http = cookieRequest(context, mode);
          await auth(context).logout(refreshTokenOf(http, args.refresh_token, mode));
          if (http) clearModeCookie(http, app, mode);
          return true;
        },
      },
    },
  };
}
