import type { AppContext } from './app-context.ts';
import { SYSTEM_ENDPOINTS } from './controllers/system-endpoints.ts';
import type { LazyRouter } from './lazy-router.ts';

/**
 * Every router of the API after /server, in the order app.ts mounts them (an earlier router wins a path
 * both serve), each imported with its services on the first request under its prefixes: a start loads none
 * of them (docs/performance.md, "Start and memory"). tests/integration/ops/lazy-routers.test.ts checks that
 * every route of each router lies under the prefixes given here.
 */
export function appRouters(context: AppContext): LazyRouter[] {
  return [
    { prefixes: ['/auth'], load: async () => (await import('./controllers/auth-controller.ts')).authController(context) },
    { prefixes: ['/auth'], load: async () => (await import('./controllers/auth-pages-controller.ts')).authPagesController(context) },
    { prefixes: ['/auth/login'], load: async () => (await import('./controllers/oidc-controller.ts')).oidcController(context) },
    { prefixes: ['/users/me/tfa'], load: async () => (await import('./controllers/tfa-controller.ts')).tfaController(context) },
    { prefixes: ['/users'], load: async () => (await import('./controllers/users-controller.ts')).usersController(context) },
    { prefixes: ['/permissions'], load: async () => (await import('./controllers/permissions-controller.ts')).permissionsController(context) },
    { prefixes: ['/shares'], load: async () => (await import('./controllers/shares-controller.ts')).sharesController(context) },
    { prefixes: ['/auth/password'], load: async () => (await import('./controllers/password-controller.ts')).passwordController(context) },
    { prefixes: ['/users/invite'], load: async () => (await import('./controllers/invite-controller.ts')).inviteController(context) },
    { prefixes: ['/users/register'], load: async () => (await import('./controllers/registration-controller.ts')).registrationController(context) },
    { prefixes: ['/collections'], load: async () => (await import('./controllers/collections-controller.ts')).collectionsController(context) },
    { prefixes: ['/fields'], load: async () => (await import('./controllers/fields-controller.ts')).fieldsController(context) },
    { prefixes: ['/relations'], load: async () => (await import('./controllers/relations-controller.ts')).relationsController(context) },
    { prefixes: ['/schema'], load: async () => (await import('./controllers/schema-controller.ts')).schemaController(context) },
    { prefixes: ['/items'], load: async () => (await import('./controllers/items-controller.ts')).itemsController(context) },
    { prefixes: ['/files'], load: async () => (await import('./controllers/files-controller.ts')).filesController(context) },
    { prefixes: ['/assets'], load: async () => (await import('./controllers/assets-controller.ts')).assetsController(context) },
    { prefixes: ['/folders'], load: async () => (await import('./controllers/folders-controller.ts')).foldersController(context) },
    { prefixes: ['/utils/import', '/utils/export'], load: async () => (await import('./controllers/import-export-controller.ts')).importExportController(context) },
    { prefixes: ['/webhooks'], load: async () => (await import('./webhooks/webhooks-controller.ts')).webhooksController(context) },
    { prefixes: ['/versions'], load: async () => (await import('./controllers/versions-controller.ts')).versionsController(context) },
    { prefixes: ['/activity/comment', '/comments'], load: async () => (await import('./controllers/comments-controller.ts')).commentsController(context) },
    { prefixes: ['/flows'], load: async () => (await import('./flows/flows-controller.ts')).flowsController(context) },
    { prefixes: ['/extensions'], load: async () => (await import('./extensions/extensions-controller.ts')).extensionsController(context) },
    { prefixes: SYSTEM_ENDPOINTS.map((name) => `/${name}`), load: async () => (await import('./controllers/system-collections-controller.ts')).systemCollectionsController(context) },
    { prefixes: ['/utils'], load: async () => (await import('./controllers/utils-controller.ts')).utilsController(context) },
    { prefixes: ['/graphql', '/server/specs/graphql'], load: async () => (await import('./graphql/graphql-controller.ts')).graphqlController(context) },
    { prefixes: ['/utils/index-advice'], load: async () => (await import('./controllers/index-advice-controller.ts')).indexAdviceController(context) },
    { prefixes: ['/utils/autocomplete'], load: async () => (await import('./autocomplete/autocomplete-controller.ts')).autocompleteController(context) },
    { prefixes: ['/panels/preview', '/dashboards'], load: async () => (await import('./insights/insights-controller.ts')).insightsController(context) },
    { prefixes: ['/server/specs/oas'], load: async () => (await import('./openapi/openapi-controller.ts')).openApiController(context) },
    ...(context.config.mcp.enabled ? [{ prefixes: ['/mcp'], load: async () => (await import('./mcp/mcp-controller.ts')).mcpController(context) }] : []),
  ];
}
