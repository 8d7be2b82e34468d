import type { HashCost } from '../auth/passwords.ts';
import path from 'node:path';
import { ConfigError } from '../errors.ts';
import { readStorageLocations, type StorageLocationConfig } from './storage-locations.ts';
import { type AuthProviderConfig, readAuthProviders } from './auth-providers.ts';
import { type OTLP_PROTOCOLS, type TRACE_SAMPLERS, VARIABLE_NAMES, variablesSchema, type Variables } from './variables.ts';
import { readVariables, reportInvalidVariables } from './read-variables.ts';

export type { AuthProviderConfig, LdapProviderConfig, OAuth2ProviderConfig, OpenIdProviderConfig, SamlProviderConfig } from './auth-providers.ts';

/** The SMTP transport's settings (EMAIL_SMTP_*, docs/config.md). */
export interface SmtpConfig {
  host: string | null;
  port: number;
  secure: boolean;
  ignoreTls: boolean;
  requireTls: boolean;
  user: string | null;
  password: string | null;
  name: string | null;
  tlsCa: string | null;
  tlsRejectUnauthorized: boolean;
}

/** Where and how traces are sent (OTEL_*); the exporter reads OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT and the TLS files itself. */
export interface TracesConfig {
  /** An OTLP exporter is configured and OTEL_SDK_DISABLED is not set: only then is the SDK loaded. */
  enabled: boolean;
  /** The full URL spans are posted to; null: the exporter's default (http://localhost:4318/v1/traces). */
  url: string | null;
  protocol: (typeof OTLP_PROTOCOLS)[number];
  serviceName: string;
  sampler: (typeof TRACE_SAMPLERS)[number];
  /** OTEL_TRACES_SAMPLER_ARG: the share a ratio sampler records. */
  samplerRatio: number;
  /** OTEL_BSP_SCHEDULE_DELAY and OTEL_BSP_MAX_QUEUE_SIZE: how spans are buffered between exports. */
  batch: { scheduleDelayMs: number; maxQueueSize: number };
}

/** Tessera's settings, typed and frozen; built once at an entry point and passed down. */
export interface Config {
  env: 'development' | 'production' | 'test';
  server: {
    host: string;
    port: number;
    publicUrl: string;
    maxPayloadSize: number;
    shutdownTimeoutMs: number;
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** 0: no cap. */
    maxConnections: number;
  };
  /** The Model Context Protocol endpoint /mcp (server/mcp, docs/mcp.md): MCP_ENABLED, MCP_ALLOW_WRITES. */
  mcp: { enabled: boolean; allowWrites: boolean };
  /** Prometheus metrics at /metrics (server/metrics, docs/operations.md "Metrics"). */
  metrics: { enabled: boolean; tokens: string[]; allowedIps: string[] };
  /** OpenTelemetry traces (server/observability, docs/operations.md "Traces"): OTEL_*. */
  traces: TracesConfig;
  /** Requests per client per window (server/middleware/rate-limit.ts). */
  rateLimiter: { enabled: boolean; points: number; durationMs: number; store: 'redis' | 'memory' };
  database: {
    /** PostgreSQL URL, or null for the embedded database. */
    url: string | null;
    poolMax: number;
    /** Reads run as named prepared statements (server/database/prepared-statements.ts). */
    preparedStatements: boolean;
    /** Longest wait to connect or for a free pool connection (DB_CONNECT_TIMEOUT). */
    connectTimeoutMs: number;
    /** PostgreSQL's statement_timeout for every pooled connection, in ms; 0 is none (DB_STATEMENT_TIMEOUT). */
    statementTimeoutMs: number;
  };
  dataDir: string;
  /** Absolute folder of the project's own migrations (MIGRATIONS_PATH). */
  migrationsPath: string;
  /** EXTENSIONS_PATH (absolute) and EXTENSIONS_AUTO_RELOAD; `projectDir` is where the project's package.json lists extension packages; the sandbox's limits (EXTENSIONS_SANDBOX_MEMORY, EXTENSIONS_SANDBOX_TIMEOUT). */
  extensions: { path: string; autoReload: boolean; projectDir: string; sandbox: { memoryBytes: number; timeoutMs: number } };
  /** Null only outside production, where the CLI provides a generated one. */
  secret: string | null;
  admin: { email: string; password: string | null };
  log: { level: Variables['LOG_LEVEL']; style: Variables['LOG_STYLE'] };
  /** `hash`: argon2id's cost for new password hashes (HASH_MEMORY_COST in KiB, HASH_TIME_COST, HASH_PARALLELISM). */
  auth: { accessTokenTtlMs: number; refreshTokenTtlMs: number; providers: AuthProviderConfig[]; hash: HashCost };
  /** Read limits; `maxRelationalDepth` counts path segments as Directus does (MAX_RELATIONAL_DEPTH, at least 2); `exportBatchSize`: items an export reads per statement (EXPORT_BATCH_SIZE). */
  query: { limitDefault: number; limitMax: number | null; maxFields: number; maxRelations: number; maxRelationalDepth: number; exportBatchSize: number };
  /** Items one write request may create, update or delete, nested ones included (MAX_BATCH_MUTATION); null: no cap. `unknownFields`: ITEMS_UNKNOWN_FIELDS. */
  items: { maxBatchMutation: number | null; unknownFields: 'refuse' | 'ignore' };
  graphql: { introspection: boolean; maxDepth: number; maxCost: number };
  redis: { url: string | null };
  realtime: { enabled: boolean; path: string; auth: 'public' | 'handshake' | 'strict'; authTimeoutMs: number; heartbeatMs: number; maxConnectionsPerUser: number; maxSubscriptions: number; maxMessageSize: number };
  /** Outgoing e-mail (server/mail). */
  mail: {
    transport: 'outbox' | 'ses' | 'smtp';
    from: string;
    ses: { region: string; endpoint: string | null; accessKeyId: string | null; secretAccessKey: string | null };
    smtp: SmtpConfig;
  };
  /** Password-reset links: lifetime and the pages (besides the admin's) a link may point to. */
  passwordReset: { tokenTtlMs: number; urlAllowList: string[] };
  /** Invitation links: lifetime and the pages (besides the admin's) a link may point to. */
  invite: { tokenTtlMs: number; urlAllowList: string[] };
  /** Public registration's verification links (POST /users/register). */
  registration: { tokenTtlMs: number; urlAllowList: string[] };
  /** Where files are stored; the first location takes new uploads (docs/files.md). */
  storage: { locations: StorageLocationConfig[] };
  /** Uploads and imports (docs/files.md). */
  files: { maxUploadSize: number; mimeTypeAllowList: string[]; importAllowedHosts: string[]; importTimeoutMs: number };
  /** Outbound calls: webhooks (docs/automation.md). */
  outbound: { allowedHosts: string[] };
  /** Flows (docs/automation.md); `exec` holds the limits of one script (docs/security.md). */
  flows: { envAllowList: string[]; exec: { timeoutMs: number; maxMemory: number; maxConcurrent: number } };
  /** How long background log rows are kept, in ms (0: forever); pruned hourly by the job worker (docs/operations.md). */
  retention: { scheduleTicksMs: number; webhookDeliveriesMs: number; flowRunsMs: number };
  /** Where jobs run (docs/automation.md, "Where jobs run"): the JOBS_WORKER value, resolved by database kind. */
  jobs: { worker: 'process' | 'inline' | 'off'; busyRate: number };
  /** Serving and transforming assets (docs/files.md). */
  assets: { cacheTtlMs: number; transformMaxConcurrent: number; transformQueue: boolean; transformMaxDimension: number; transformTimeoutMs: number };
  /** Timing of read shapes for /utils/index-advice (server/indexes). */
  indexAdvice: { thresholdMs: number; maxShapes: number };
  cors: {
    enabled: boolean;
    origin: string[];
    methods: string[];
    allowedHeaders: string[];
    exposedHeaders: string[];
    credentials: boolean;
    maxAge: number;
  };
  /** The project's IANA time zone (PROJECT_TIME_ZONE): Insights buckets and date grouping. */
  project: { timeZone: string };
  /** The response cache (server/cache, docs/cache.md). */
  cache: {
    enabled: boolean;
    store: 'memory' | 'redis';
    ttlMs: number;
    autoPurge: boolean;
    namespace: string;
    /** `s-maxage` seconds for shared caches; null: none. */
    sMaxAge: number | null;
    skipAllowed: boolean;
    maxEntrySize: number;
    memoryMaxSize: number;
  };
}

type Env = Record<string, string | undefined>;

/**
 * Reads, casts and validates every setting from `env`. Throws one ConfigError that names every bad
 * variable. Pure apart from reading `*_FILE` files; `cwd` anchors relative paths.
 */
export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const raw = readVariables(env, VARIABLE_NAMES, problems);
  let vars: Variables | undefined;
  try {
    vars = variablesSchema.validateSync(raw, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    reportInvalidVariables(error, raw, problems, '', 'config');
  }
  if (raw.NODE_ENV === 'production' && !raw.SECRET) {
    problems.push('SECRET: is required when NODE_ENV is production (run `tessera init` or set a random string of 32+ characters)');
  }
  if (vars && vars.SERVER_HEADERS_TIMEOUT > vars.SERVER_REQUEST_TIMEOUT) {
    problems.push('SERVER_HEADERS_TIMEOUT: must not be longer than SERVER_REQUEST_TIMEOUT');
  }
  if (vars?.CACHE_ENABLED && vars.CACHE_STORE === 'redis' && !vars.REDIS_URL) {
    problems.push('CACHE_STORE: redis needs REDIS_URL');
  }
  if (vars?.RATE_LIMITER_STORE === 'redis' && !vars.REDIS_URL) {
    problems.push('RATE_LIMITER_STORE: redis needs REDIS_URL');
  }
  if (Boolean(raw.EMAIL_SES_ACCESS_KEY_ID) !== Boolean(raw.EMAIL_SES_SECRET_ACCESS_KEY)) {
    problems.push('EMAIL_SES_ACCESS_KEY_ID and EMAIL_SES_SECRET_ACCESS_KEY: set both or neither (neither uses the AWS default credential chain)');
  }
  if (vars?.EMAIL_TRANSPORT === 'smtp' && !vars.EMAIL_SMTP_HOST) {
    problems.push('EMAIL_SMTP_HOST: is required when EMAIL_TRANSPORT is smtp');
  }
  if (Boolean(raw.EMAIL_SMTP_USER) !== Boolean(raw.EMAIL_SMTP_PASSWORD)) {
    problems.push('EMAIL_SMTP_USER and EMAIL_SMTP_PASSWORD: set both or neither (neither sends without authentication)');
  }
  if (vars?.EMAIL_SMTP_SECURE && vars.EMAIL_SMTP_IGNORE_TLS) {
    problems.push('EMAIL_SMTP_IGNORE_TLS: cannot be true when EMAIL_SMTP_SECURE is true (the connection is TLS from the start)');
  }
  if (vars?.EMAIL_SMTP_IGNORE_TLS && vars.EMAIL_SMTP_REQUIRE_TLS) {
    problems.push('EMAIL_SMTP_REQUIRE_TLS: cannot be true together with EMAIL_SMTP_IGNORE_TLS');
  }
  if (vars && vars.HASH_MEMORY_COST < 8 * vars.HASH_PARALLELISM) {
    problems.push(`HASH_MEMORY_COST: must be at least 8 KiB per lane of HASH_PARALLELISM (${8 * vars.HASH_PARALLELISM} for ${vars.HASH_PARALLELISM})`);
  }
  if (vars?.JOBS_WORKER === 'process' && !vars.DB_URL) {
    problems.push('JOBS_WORKER: process needs DB_URL (the embedded database lives in the serving process; use inline)');
  }
  const providers = readAuthProviders(env, vars?.AUTH_PROVIDERS ?? [], problems);
  // Read even when other variables are bad, so one run reports every problem.
  const storageNames = vars?.STORAGE_LOCATIONS ?? (raw.STORAGE_LOCATIONS ?? 'local').split(',').map((name) => name.trim()).filter(Boolean);
  const storage = readStorageLocations(env, storageNames, path.resolve(cwd, vars?.DATA_DIR ?? raw.DATA_DIR ?? './data'), cwd, problems);
  if (problems.length > 0 || !vars) throw new ConfigError(problems);
  return freezeDeep(toConfig(vars, cwd, providers, storage));
}

/**
 * JOBS_WORKER as set, else `inline`: measured on 2 cores, a separate job process did not make hooked creates
 * faster (PostgreSQL does the jobs' work either way) and costs a second Node process (~100 MB resident).
 */
function jobsWorker(value: string | undefined): Config['jobs']['worker'] {
  if (value === 'process' || value === 'inline' || value === 'off') return value;
  return 'inline';
}

/**
 * OTEL_* as the OpenTelemetry specification reads them: traces are on when OTEL_TRACES_EXPORTER is `otlp`, or
 * unset while an OTLP endpoint is; the traces-only endpoint is used as is, the general one gets `/v1/traces`.
 */
function tracesConfig(vars: Variables): TracesConfig {
  const endpoint = vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (vars.OTEL_EXPORTER_OTLP_ENDPOINT ? `${vars.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : null);
  const exporter = vars.OTEL_TRACES_EXPORTER ?? (endpoint ? 'otlp' : 'none');
  return {
    enabled: !vars.OTEL_SDK_DISABLED && exporter === 'otlp',
    url: endpoint,
    protocol: (vars.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? vars.OTEL_EXPORTER_OTLP_PROTOCOL) as TracesConfig['protocol'],
    serviceName: vars.OTEL_SERVICE_NAME,
    sampler: vars.OTEL_TRACES_SAMPLER as TracesConfig['sampler'],
    samplerRatio: vars.OTEL_TRACES_SAMPLER_ARG,
    batch: { scheduleDelayMs: vars.OTEL_BSP_SCHEDULE_DELAY, maxQueueSize: vars.OTEL_BSP_MAX_QUEUE_SIZE },
  };
}

function toConfig(vars: Variables, cwd: string, providers: AuthProviderConfig[], storage: StorageLocationConfig[]): Config {
  return {
    env: vars.NODE_ENV as Config['env'],
    server: {
      host: vars.HOST,
      port: vars.PORT,
      publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, ''),
      maxPayloadSize: vars.MAX_PAYLOAD_SIZE,
      shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT,
      headersTimeoutMs: vars.SERVER_HEADERS_TIMEOUT,
      requestTimeoutMs: vars.SERVER_REQUEST_TIMEOUT,
      keepAliveTimeoutMs: vars.SERVER_KEEP_ALIVE_TIMEOUT,
      maxConnections: vars.SERVER_MAX_CONNECTIONS,
    },
    mcp: { enabled: vars.MCP_ENABLED, allowWrites: vars.MCP_ALLOW_WRITES },
    metrics: { enabled: vars.METRICS_ENABLED, tokens: vars.METRICS_TOKENS, allowedIps: vars.METRICS_ALLOWED_IPS },
    traces: tracesConfig(vars),
    rateLimiter: {
      enabled: vars.RATE_LIMITER_ENABLED,
      points: vars.RATE_LIMITER_POINTS,
      durationMs: vars.RATE_LIMITER_DURATION,
      store: (vars.RATE_LIMITER_STORE ?? (vars.REDIS_URL ? 'redis' : 'memory')) as Config['rateLimiter']['store'],
    },
    database: { url: vars.DB_URL ?? null, poolMax: vars.DB_POOL_MAX, preparedStatements: vars.DB_PREPARED_STATEMENTS, connectTimeoutMs: vars.DB_CONNECT_TIMEOUT, statementTimeoutMs: vars.DB_STATEMENT_TIMEOUT },
    dataDir: path.resolve(cwd, vars.DATA_DIR),
    migrationsPath: path.resolve(cwd, vars.MIGRATIONS_PATH),
    extensions: {
      path: path.resolve(cwd, vars.EXTENSIONS_PATH),
      autoReload: vars.EXTENSIONS_AUTO_RELOAD,
      projectDir: cwd,
      sandbox: { memoryBytes: vars.EXTENSIONS_SANDBOX_MEMORY * 1024 * 1024, timeoutMs: vars.EXTENSIONS_SANDBOX_TIMEOUT },
    },
    secret: vars.SECRET ?? null,
    admin: { email: vars.ADMIN_EMAIL.toLowerCase(), password: vars.ADMIN_PASSWORD ?? null },
    log: { level: vars.LOG_LEVEL as Config['log']['level'], style: (vars.LOG_FORMAT === 'json' ? 'raw' : (vars.LOG_FORMAT ?? vars.LOG_STYLE)) as Config['log']['style'] },
    auth: { accessTokenTtlMs: vars.ACCESS_TOKEN_TTL, refreshTokenTtlMs: vars.REFRESH_TOKEN_TTL, providers, hash: { memoryCost: vars.HASH_MEMORY_COST, timeCost: vars.HASH_TIME_COST, parallelism: vars.HASH_PARALLELISM } },
    redis: { url: vars.REDIS_URL ?? null },
    realtime: {
      enabled: vars.WEBSOCKETS_ENABLED,
      path: vars.WEBSOCKETS_REST_PATH,
      auth: vars.WEBSOCKETS_REST_AUTH as Config['realtime']['auth'],
      authTimeoutMs: vars.WEBSOCKETS_REST_AUTH_TIMEOUT * 1000,
      heartbeatMs: vars.WEBSOCKETS_HEARTBEAT_PERIOD * 1000,
      maxConnectionsPerUser: vars.WEBSOCKETS_MAX_CONNECTIONS_PER_USER,
      maxSubscriptions: vars.WEBSOCKETS_MAX_SUBSCRIPTIONS,
      maxMessageSize: vars.WEBSOCKETS_MAX_MESSAGE_SIZE,
    },
    mail: {
      transport: vars.EMAIL_TRANSPORT as Config['mail']['transport'],
      from: vars.EMAIL_FROM,
      ses: {
        region: vars.EMAIL_SES_REGION,
        endpoint: vars.EMAIL_SES_ENDPOINT ?? null,
        accessKeyId: vars.EMAIL_SES_ACCESS_KEY_ID ?? null,
        secretAccessKey: vars.EMAIL_SES_SECRET_ACCESS_KEY ?? null,
      },
      smtp: {
        host: vars.EMAIL_SMTP_HOST ?? null,
        port: vars.EMAIL_SMTP_PORT ?? (vars.EMAIL_SMTP_SECURE ? 465 : 587),
        secure: vars.EMAIL_SMTP_SECURE,
        ignoreTls: vars.EMAIL_SMTP_IGNORE_TLS,
        requireTls: vars.EMAIL_SMTP_REQUIRE_TLS,
        user: vars.EMAIL_SMTP_USER ?? null,
        password: vars.EMAIL_SMTP_PASSWORD ?? null,
        name: vars.EMAIL_SMTP_NAME ?? null,
        tlsCa: vars.EMAIL_SMTP_TLS_CA ?? null,
        tlsRejectUnauthorized: vars.EMAIL_SMTP_TLS_REJECT_UNAUTHORIZED,
      },
    },
    passwordReset: { tokenTtlMs: vars.PASSWORD_RESET_TOKEN_TTL, urlAllowList: vars.PASSWORD_RESET_URL_ALLOW_LIST },
    invite: { tokenTtlMs: vars.USER_INVITE_TOKEN_TTL, urlAllowList: vars.USER_INVITE_URL_ALLOW_LIST },
    registration: { tokenTtlMs: vars.EMAIL_VERIFICATION_TOKEN_TTL, urlAllowList: vars.USER_REGISTER_URL_ALLOW_LIST },
    query: {
      limitDefault: vars.QUERY_LIMIT_DEFAULT,
      limitMax: vars.QUERY_LIMIT_MAX ?? null,
      maxFields: vars.QUERY_MAX_FIELDS,
      maxRelations: vars.QUERY_MAX_RELATIONS,
      maxRelationalDepth: Math.max(2, vars.MAX_RELATIONAL_DEPTH),
      exportBatchSize: vars.EXPORT_BATCH_SIZE,
    },
    items: { maxBatchMutation: vars.MAX_BATCH_MUTATION ?? null, unknownFields: vars.ITEMS_UNKNOWN_FIELDS as Config['items']['unknownFields'] },
    graphql: { introspection: vars.GRAPHQL_INTROSPECTION, maxDepth: vars.GRAPHQL_QUERY_DEPTH_MAX, maxCost: vars.GRAPHQL_QUERY_COST_MAX },
    storage: { locations: storage },
    outbound: { allowedHosts: vars.OUTBOUND_ALLOWED_HOSTS },
    flows: { envAllowList: vars.FLOWS_ENV_ALLOW_LIST, exec: { timeoutMs: vars.FLOWS_EXEC_TIMEOUT, maxMemory: vars.FLOWS_EXEC_MAX_MEMORY, maxConcurrent: vars.FLOWS_EXEC_MAX_CONCURRENT } },
    retention: { scheduleTicksMs: vars.RETENTION_SCHEDULE_TICKS, webhookDeliveriesMs: vars.RETENTION_WEBHOOK_DELIVERIES, flowRunsMs: vars.RETENTION_FLOW_RUNS },
    jobs: { worker: jobsWorker(vars.JOBS_WORKER), busyRate: vars.JOBS_BUSY_RATE },
    files: {
      maxUploadSize: vars.FILES_MAX_UPLOAD_SIZE,
      mimeTypeAllowList: vars.FILES_MIME_TYPE_ALLOW_LIST,
      importAllowedHosts: vars.FILES_IMPORT_ALLOWED_HOSTS.map((host) => host.toLowerCase()),
      importTimeoutMs: vars.FILES_IMPORT_TIMEOUT,
    },
    assets: {
      cacheTtlMs: vars.ASSETS_CACHE_TTL,
      transformMaxConcurrent: vars.ASSETS_TRANSFORM_MAX_CONCURRENT,
      transformQueue: vars.ASSETS_TRANSFORM_QUEUE,
      transformMaxDimension: vars.ASSETS_TRANSFORM_IMAGE_MAX_DIMENSION,
      transformTimeoutMs: vars.ASSETS_TRANSFORM_TIMEOUT,
    },
    cors: {
      enabled: vars.CORS_ENABLED,
      origin: vars.CORS_ORIGIN,
      methods: vars.CORS_METHODS,
      allowedHeaders: vars.CORS_ALLOWED_HEADERS,
      exposedHeaders: vars.CORS_EXPOSED_HEADERS,
      credentials: vars.CORS_CREDENTIALS,
      maxAge: vars.CORS_MAX_AGE,
    },
    indexAdvice: { thresholdMs: vars.INDEX_ADVICE_THRESHOLD, maxShapes: vars.INDEX_ADVICE_MAX_SHAPES },
    project: { timeZone: vars.PROJECT_TIME_ZONE },
    cache: {
      enabled: vars.CACHE_ENABLED,
      store: vars.CACHE_STORE as Config['cache']['store'],
      ttlMs: vars.CACHE_TTL,
      autoPurge: vars.CACHE_AUTO_PURGE,
      namespace: vars.CACHE_NAMESPACE,
      sMaxAge: vars.CACHE_CONTROL_S_MAXAGE ?? null,
      skipAllowed: vars.CACHE_SKIP_ALLOWED,
      maxEntrySize: vars.CACHE_MAX_ENTRY_SIZE,
      memoryMaxSize: vars.CACHE_MEMORY_MAX_SIZE,
    },
  };
}

function freezeDeep<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) freezeDeep(child);
    Object.freeze(value);
  }
  return value;
}

/** Returns a copy of `config` with `changes` applied (e.g. the generated development secret). */
export function withConfig(config: Config, changes: Partial<Config>): Config {
  return freezeDeep({ ...structuredClone(config), ...changes });
}
