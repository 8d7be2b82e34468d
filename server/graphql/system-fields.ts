import { GraphQLBoolean, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfig } from 'graphql';
import type { AppContext } from '../app-context.ts';
import { AuthService } from '../auth/auth-service.ts';
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

/** `/graphql/system`'s own fields: `server_info`, and the auth mutations (JSON mode: tokens in the answer). */
export function systemFields(app: AppContext): { query: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>>; mutation: Record<string, GraphQLFieldConfig<unknown, GraphQLContext>> } {
  const auth = (context: GraphQLContext) => new AuthService(app.servicesContext(context.items.accountability));
  return {
    query: {
      // Directus's system schema answers it; clients use it as a liveness check.
      server_ping: { type: GraphQLString, resolve: () => 'pong' },
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
        args: { email: { type: new GraphQLNonNull(GraphQLString) }, password: { type: new GraphQLNonNull(GraphQLString) }, otp: { type: GraphQLString } },
        resolve: (_root, args: { email: string; password: string; otp?: string | null }, context) => auth(context).login(args),
      },
      auth_refresh: {
        type: authTokens,
        args: { refresh_token: { type: new GraphQLNonNull(GraphQLString) } },
        resolve: (_root, args: { refresh_token: string }, context) => auth(context).refresh(args.refresh_token),
      },
      auth_logout: {
        type: GraphQLBoolean,
        args: { refresh_token: { type: new GraphQLNonNull(GraphQLString) } },
        resolve: async (_root, args: { refresh_token: string }, context) => {
          await auth(context).logout(args.refresh_token);
          return true;
        },
      },
    },
  };
}
