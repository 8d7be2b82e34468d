import type { Accountability } from './auth/accountability.ts';
import type { Config } from './config/index.ts';
import type { Database } from './database/database.ts';
import type { Logger } from './logger.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createPermissionCache, type PermissionCache } from './permissions/permission-cache.ts';
import { createLoginAttempts } from './auth/login-attempts.ts';
import { createAccessStampCache, type AccessStampCache } from './auth/access-stamp-cache.ts';
import { createSchemaCache, type SchemaCache } from './schema/schema-cache.ts';
import { syncSchemaCache } from './schema/schema-sync.ts';
import { redisNamespace } from './redis/redis-client.ts';
import { createChangeNotices, type ChangeNotices } from './redis/change-notices.ts';
import type { ServiceContext } from './services/service-context.ts';
import type { Kysely } from 'kysely';
import { createResponseCache, type ResponseCache } from './cache/response-cache.ts';
import { ForegroundLoad } from './jobs/foreground-load.ts';
import { closeFilesRuntime } from './files/files-runtime.ts';
import { createExtensionManager, type ExtensionManager } from './extensions/extension-manager.ts';
import { EventBus } from './events/event-bus.ts';
import { CollectionRules } from './services/items/collection-rules.ts';
import { OutboxConsumers } from './jobs/outbox-consumers.ts';
import { registerBuiltins } from './builtins.ts';

/** Everything the HTTP app and the CLI share for one process: settings, logger and database. */
export interface AppContext {
  /** Settings with SECRET resolved. */
  config: Config & { secret: string };
  logger: Logger;
  database: Database;
  /** The schema overview of this process, invalidated by the collections, fields and relations services. */
  schema: SchemaCache;
  /** Effective permissions per role; cleared whenever the schema cache is invalidated (here or on another instance). */
  permissions: PermissionCache;
  /** Cached GET responses (CACHE_*); emptied with every schema invalidation (docs/cache.md). */
  responseCache: ResponseCache;
  /** How busy this process is with requests; background jobs give way while it is saturated (JOBS_BUSY_RATE). */
  foreground: ForegroundLoad;
  /** The event spine: services emit on it; built-in subscribers and extensions' hooks register filters and actions on it. */
  events: EventBus;
  /** Per-collection rules (validation, defaults, side effects) every ItemsService write applies. */
  rules: CollectionRules;
  /** What the outbox relay turns committed item events into (webhook deliveries, action flow runs). */
  outbox: OutboxConsumers;
  /** Builds the context a service runs with for this caller (inside `db` when given a transaction). */
  servicesContext(accountability: Accountability, db?: Kysely<any>): ServiceContext;
  /** The project's extensions (EXTENSIONS_PATH and extension packages): loaded by `load()`, listed at /extensions. */
  extensions: ExtensionManager;
  /** Per-user access stamps: access tokens issued before a user's access ended are refused (docs/auth.md "Ending access"). */
  accessStamps: AccessStampCache;
  /** Announces changes to what each instance keeps in memory (flows) to the other instances; opened on first use. */
  changes: ChangeNotices;
  /** Sends e-mail through the transport EMAIL_TRANSPORT selects. */
  mailer: Mailer;
  /** Measures the round trip to Redis in ms (throws while it is unreachable); null without REDIS_URL. */
  pingRedis: (() => Promise<number>) | null;
  /** Resolves once connections to shared services (Redis) are ready, or startup has gone on without them. */
  ready: Promise<void>;
  /** Closes connections the context opened (Redis); the database is closed by its owner. */
  dispose(): Promise<void>;
}

/**
 * Ties a loaded config, a logger, an open database and its schema cache together, and is the composition
 * root: it owns the registries (event spine, collection rules, outbox consumers) and has the built-in
 * features register in them (server/builtins.ts).
 */
export function createAppContext(config: Config & { secret: string }, logger: Logger, database: Database): AppContext {
  const permissions = createPermissionCache(() => database.kysely());
  let extensions: ExtensionManager | null = null;
  let changes: ChangeNotices | null = null;
  const namespace = redisNamespace(config.database.url, config.dataDir);
  const responseCache = createResponseCache(config, logger, namespace);
  // Runs for this instance's changes and for those heard from other instances: an answer computed with the
  // old schema or permissions must not outlive them (reads that began before the purge are refused).
  const local = createSchemaCache(
    () => database.kysely(),
    undefined,
    () => {
      permissions.clear();
      void responseCache.purgeAll();
      // Extensions switched on or off on another instance arrive with the same announcement.
      void extensions?.resyncEnabled().catch((error: unknown) => logger.error({ err: error }, 'could not re-read which extensions are enabled'));
    },
  );
  // With several instances, schema changes are announced through Redis so every cache rebuilds.
  const synced = config.redis.url ? syncSchemaCache(local, config.redis.url, logger, namespace) : null;
  const loginAttempts = createLoginAttempts(config.redis.url, logger, namespace);
  const accessStamps = createAccessStampCache(() => database.kysely(), { redisUrl: config.redis.url, logger, namespace });
  const schema = synced ?? local;
  const mailer = createMailer(config, logger);
  const foreground = new ForegroundLoad(config.jobs.busyRate);
  const events = new EventBus();
  events.setLogger(logger);
  const rules = new CollectionRules();
  const context: AppContext = {
    config,
    logger,
    database,
    schema,
    permissions,
    responseCache,
    foreground,
    events,
    rules,
    outbox: new OutboxConsumers(),
    servicesContext: (accountability, db) => ({ accountability, db: db ?? database.kysely(), config, permissions, schemaCache: schema, loginAttempts, responseCache, accessStamps, events, rules }),
    accessStamps,
    mailer,
    get extensions() {
      return (extensions ??= createExtensionManager(context));
    },
    get changes() {
      return (changes ??= createChangeNotices(config.redis.url, logger, namespace));
    },
    pingRedis: synced ? () => synced.ping() : null,
    ready: Promise.all([synced?.ready, accessStamps.ready]).then(() => undefined),
    dispose: async () => {
      await extensions?.close();
      await loginAttempts.close();
      await accessStamps.close();
      await mailer.idle();
      await synced?.close();
      await changes?.close();
      await responseCache.close();
      foreground.close();
      closeFilesRuntime(context);
      offBuiltins();
    },
  };
  const offBuiltins = registerBuiltins(context);
  return context;
}
