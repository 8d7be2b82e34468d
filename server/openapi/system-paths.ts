import type { JsonSchema } from './field-schemas.ts';

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } } });
const query = (name: string, description: string, schema: JsonSchema) => ({ name, in: 'query', required: false, description, schema });

/** Parameters, responses and schemas every document shares (Directus's component names). */
export const commonComponents = {
  parameters: {
    Fields: query('fields', 'Fields to return; `*` for all, dots for relations (`author.name`).', { type: 'array', items: { type: 'string' } }),
    Limit: query('limit', 'How many items to return; -1 for all (bounded by QUERY_LIMIT_MAX).', { type: 'integer' }),
    Offset: query('offset', 'How many items to skip.', { type: 'integer' }),
    Page: query('page', 'Page number (with limit).', { type: 'integer' }),
    Sort: query('sort', 'Fields to sort by; a leading `-` sorts descending.', { type: 'array', items: { type: 'string' } }),
    Filter: { name: 'filter', in: 'query', required: false, description: 'Filter rules as JSON (`{"status":{"_eq":"published"}}`).', content: { 'application/json': { schema: { type: 'object' } } } },
    Search: query('search', 'Text to find in the searchable fields.', { type: 'string' }),
    Meta: query('meta', 'Counts to add: `total_count`, `filter_count` or `*`.', { type: 'string' }),
  },
  responses: {
    BadRequestError: error('The request is invalid: the error names the field.'),
    UnauthorizedError: error('The credentials are missing, invalid or expired.'),
    ForbiddenError: error('The caller may not do this.'),
    NotFoundError: error('No such item, or the caller may not read it.'),
  },
  schemas: {
    Errors: {
      type: 'object',
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          items: { type: 'object', required: ['message'], properties: { message: { type: 'string' }, extensions: { type: 'object', properties: { code: { type: 'string' }, field: { type: 'string' } } } } },
        },
      },
    },
    Query: {
      type: 'object',
      properties: {
        fields: { type: 'array', items: { type: 'string' } },
        filter: { type: 'object' },
        search: { type: 'string' },
        sort: { type: 'array', items: { type: 'string' } },
        limit: { type: 'integer' },
        offset: { type: 'integer' },
        page: { type: 'integer' },
        deep: { type: 'object' },
      },
    },
    'x-metadata': { type: 'object', properties: { total_count: { type: 'integer' }, filter_count: { type: 'integer' } } },
    AuthTokens: {
      type: 'object',
      properties: { access_token: { type: 'string' }, expires: { type: 'integer', description: 'Milliseconds until the access token expires.' }, refresh_token: { type: ['string', 'null'] } },
    },
  } as Record<string, JsonSchema>,
  securitySchemes: {
    Auth: { type: 'http', scheme: 'bearer', description: 'An access token from /auth/login, a static user token, or the session cookie.' },
  },
};

const tokens = { description: 'Signed in.', content: { 'application/json': { schema: { type: 'object', properties: { data: { $ref: '#/components/schemas/AuthTokens' } } } } } };
const mode = { mode: { type: 'string', enum: ['json', 'cookie', 'session'] } };

/** Endpoints outside the collections that every caller may use (and /users/me for a signed-in one). */
export function systemPaths(options: { signedIn: boolean; usersRef: string | null }): Record<string, Record<string, Record<string, unknown>>> {
  const paths: Record<string, Record<string, Record<string, unknown>>> = {
    '/auth/login': {
      post: {
        operationId: 'login',
        summary: 'Sign in with e-mail and password.',
        tags: ['Authentication'],
        security: [{}],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['email', 'password'], properties: { email: { type: 'string', format: 'email' }, password: { type: 'string' }, otp: { type: 'string' }, ...mode } } } } },
        responses: { '200': tokens, '400': { $ref: '#/components/responses/BadRequestError' }, '401': { $ref: '#/components/responses/UnauthorizedError' } },
      },
    },
    '/auth/refresh': {
      post: {
        operationId: 'refresh',
        summary: 'Trade a refresh token (body or cookie) for new tokens.',
        tags: ['Authentication'],
        security: [{}],
        requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: { refresh_token: { type: 'string' }, ...mode } } } } },
        responses: { '200': tokens, '401': { $ref: '#/components/responses/UnauthorizedError' } },
      },
    },
    '/auth/logout': {
      post: {
        operationId: 'logout',
        summary: 'End the session of a refresh token (body or cookie).',
        tags: ['Authentication'],
        security: [{}],
        requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: { refresh_token: { type: 'string' }, ...mode } } } } },
        responses: { '204': { description: 'Signed out.' } },
      },
    },
    '/server/ping': { get: { operationId: 'ping', summary: 'Answers `pong`.', tags: ['Server'], security: [{}], responses: { '200': { description: 'pong', content: { 'text/html': { schema: { type: 'string' } } } } } } },
    '/server/health': { get: { operationId: 'health', summary: 'Database and Redis health.', tags: ['Server'], security: [{}], responses: { '200': { description: 'Healthy.' }, '503': { description: 'The database is unreachable.' } } } },
    '/server/info': { get: { operationId: 'serverInfo', summary: 'Public project settings (and versions for administrators).', tags: ['Server'], responses: { '200': { description: 'Server information.', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'object' } } } } } } } } },
    '/server/specs/oas': { get: { operationId: 'oas', summary: 'This document, for the caller.', tags: ['Server'], responses: { '200': { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } } } } },
    '/server/specs/graphql': { get: { operationId: 'graphqlSdl', summary: 'The GraphQL SDL of the caller\'s /graphql schema.', tags: ['Server'], responses: { '200': { description: 'SDL.', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
  };
  if (options.signedIn) {
    const me = options.usersRef ? { $ref: options.usersRef } : { type: 'object' };
    paths['/users/me'] = {
      get: { operationId: 'getMe', summary: 'The signed-in user.', tags: ['Users'], parameters: [{ $ref: '#/components/parameters/Fields' }], responses: { '200': { description: 'The user.', content: { 'application/json': { schema: { type: 'object', properties: { data: me } } } } }, '401': { $ref: '#/components/responses/UnauthorizedError' } } },
    };
  }
  return paths;
}
