import cors from '@koa/cors';
import Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { AppContext } from './app-context.ts';
import { adminController } from './controllers/admin-controller.ts';
import { assetsController } from './controllers/assets-controller.ts';
import { authController } from './controllers/auth-controller.ts';
import { authPagesController } from './controllers/auth-pages-controller.ts';
import { oidcController } from './controllers/oidc-controller.ts';
import { cookieKeys } from './auth/session-cookie.ts';
import { collectionsController } from './controllers/collections-controller.ts';
import { commentsController } from './controllers/comments-controller.ts';
import { fieldsController } from './controllers/fields-controller.ts';
import { filesController } from './controllers/files-controller.ts';
import { foldersController } from './controllers/folders-controller.ts';
import { importExportController } from './controllers/import-export-controller.ts';
import { inviteController } from './controllers/invite-controller.ts';
import { itemsController } from './controllers/items-controller.ts';
import { permissionsController } from './controllers/permissions-controller.ts';
import { sharesController } from './controllers/shares-controller.ts';
import { passwordController } from './controllers/password-controller.ts';
import { relationsController } from './controllers/relations-controller.ts';
import { schemaController } from './controllers/schema-controller.ts';
import { systemCollectionsController } from './controllers/system-collections-controller.ts';
import { serverController } from './controllers/server-controller.ts';
import { tfaController } from './controllers/tfa-controller.ts';
import { usersController } from './controllers/users-controller.ts';
import { utilsController } from './controllers/utils-controller.ts';
import { webhooksController } from './webhooks/webhooks-controller.ts';
import { versionsController } from './controllers/versions-controller.ts';
import { graphqlController } from './graphql/graphql-controller.ts';
import { flowsController } from './flows/flows-controller.ts';
import { insightsController } from './insights/insights-controller.ts';
import { RouteNotFoundError } from './errors.ts';
import { accountability } from './middleware/accountability.ts';
import { cancelOnClose } from './middleware/cancel-on-close.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { requestId } from './middleware/request-id.ts';
import { requestLogger } from './middleware/request-logger.ts';
import { searchAsGet, searchBody } from './middleware/search-method.ts';
import type { RateLimit } from './middleware/rate-limit.ts';

/** What the process that serves the app adds to it (server/http-server.ts). */
export interface AppOptions {
  /** RATE_LIMITER_*: its owner closes it. */
  rateLimit?: Pick<RateLimit, 'beforeAuth' | 'afterAuth'>;
}

/** Builds the Koa application; it does not listen, so tests can drive `app.callback()`. */
export function createApp(context: AppContext, options: AppOptions = {}): Koa {
  const { config, logger } = context;
  const app = new Koa({ proxy: false, keys: cookieKeys(config.secret) });
  app.silent = true;

  // Order matters: ids and logs wrap everything, so even a failed body parse is logged with its id.
  app.use(requestId());
  app.use(requestLogger(logger));
  app.use(errorHandler(logger));
  app.use(cancelOnClose());
  if (config.cors.enabled) {
    const origins = config.cors.origin;
    app.use(
      cors({
        origin: (ctx) => (origins.includes('*') ? (config.cors.credentials ? ctx.get('Origin') : '*') : origins.includes(ctx.get('Origin')) ? ctx.get('Origin') : ''),
        allowMethods: config.cors.methods,
        allowHeaders: config.cors.allowedHeaders,
        exposeHeaders: config.cors.exposedHeaders,
        credentials: config.cors.credentials,
        maxAge: config.cors.maxAge,
      }),
    );
  }
  app.use(searchBody());
  // Anonymous floods are turned away before their bodies are parsed; signed-in callers after accountability.
  if (options.rateLimit) app.use(options.rateLimit.beforeAuth);
  const limit = config.server.maxPayloadSize;
  const parsedMethods = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];
  app.use(
    koaBody({
      jsonLimit: limit,
      formLimit: limit,
      textLimit: limit,
      multipart: false,
      parsedMethods,
      onError: (error) => {
        throw error;
      },
    }),
  );
  app.use(searchAsGet());
  app.use(accountability(config.secret, context));
  if (options.rateLimit) app.use(options.rateLimit.afterAuth);

  for (const router of [
    serverController(context),
    authController(context),
    authPagesController(context),
    oidcController(context),
    tfaController(context),
    usersController(context),
    permissionsController(context),
    sharesController(context),
    passwordController(context),
    inviteController(context),
    collectionsController(context),
    fieldsController(context),
    relationsController(context),
    schemaController(context),
    itemsController(context),
    filesController(context),
    assetsController(context),
    foldersController(context),
    importExportController(context),
    webhooksController(context),
    versionsController(context),
    commentsController(context),
    flowsController(context),
    systemCollectionsController(context),
    utilsController(context),
    graphqlController(context),
    insightsController(context),
  ]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  app.use(adminController());

  app.use((ctx) => {
    throw new RouteNotFoundError(`Route ${ctx.path} doesn't exist.`);
  });
  return app;
}
