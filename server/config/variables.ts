import bytes from 'bytes';
import ipaddr from 'ipaddr.js';
import ms from 'ms';
import * as yup from 'yup';
import { isTimeZone } from '../query/time-zone.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** OTLP encodings the trace exporters speak (OTLP/HTTP; no gRPC). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
/** The standard OTEL_TRACES_SAMPLER values. */
export const TRACE_SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/** Parses '15m', '30d', '900' (seconds) into milliseconds; leaves garbage for the validator to reject. */
function toMilliseconds(value: unknown, original: unknown): unknown {
  if (typeof original !== 'string') return value;
  const text = original.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const parsed = ms(text as ms.StringValue);
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : Number.NaN;
}

/** Parses '1mb', '512kb', '1048576' into bytes. */
function toBytes(value: unknown, original: unknown): unknown {
  if (typeof original !== 'string') return value;
  const parsed = bytes.parse(original.trim());
  return parsed === null || Number.isNaN(parsed) ? Number.NaN : parsed;
}

/** Splits 'a, b,c' into ['a', 'b', 'c']; empty means an empty list. */
function toList(value: unknown, original: unknown): unknown {
  if (typeof original !== 'string') return value;
  return original
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** True for an IP address or a CIDR range (`10.0.0.0/8`, `::1/128`). */
function isIpOrCidr(value: string): boolean {
  return ipaddr.isValid(value) || ipaddr.isValidCIDR(value);
}

/** True when `value` parses as a URL. */
function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** True for absolute http(s) URLs, including single-label hosts such as localhost or a container name. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const duration = (fallback: string) =>
  yup.number().transform(toMilliseconds).typeError('must be a duration such as 15m, 1h or 30d').positive().default(ms(fallback as ms.StringValue));

/** How long background log rows are kept: a duration, or 0 to keep them forever. */
const retention = (fallback: string) =>
  yup.number().transform(toMilliseconds).typeError('must be a duration such as 7d or 12h, or 0 to keep forever').min(0).default(ms(fallback as ms.StringValue));
export const list = (fallback: string[]) => yup.array(yup.string().required()).transform(toList).default(fallback);

export const urlList = () => list([]).test('http-urls', 'must list absolute http:// or https:// URLs', (values) => (values ?? []).every(isHttpUrl));

/**
 * Every environment variable Tessera reads, with its default and validation (docs/config.md lists them).
 * Names are the variables' own; loadConfig() maps them to the typed Config.
 */
export const variablesSchema = yup.object({
  /** Runtime mode; `production` requires SECRET. @default development */
  NODE_ENV: yup.string().oneOf(['development', 'production', 'test']).default('development'),
  /** Address the HTTP server binds to. @default 0.0.0.0 */
  HOST: yup.string().default('0.0.0.0'),
  /** Port the HTTP server listens on (0 picks a free one). @default 8055 */
  PORT: yup.number().typeError('must be a port number').integer().min(0).max(65535).default(8055),
  /** Public address of the server, used in links and cookies. @default http://localhost:PORT */
  PUBLIC_URL: yup.string().test('http-url', 'must be an absolute http:// or https:// URL', (value) => value === undefined || isHttpUrl(value)).optional(),
  /** PostgreSQL connection URL; unset means the embedded database in DATA_DIR. */
  DB_URL: yup
    .string()
    .matches(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .test('url', 'must be a valid URL (user, password and database name percent-encoded, port a number)', (value) => value === undefined || isUrl(value))
    .optional(),
  /** Maximum database connections per process. @default 10 */
  DB_POOL_MAX: yup.number().typeError('must be a number').integer().min(1).max(1000).default(10),
  /** Run the query layer's reads as named prepared statements (turn off behind a pooler that cannot keep them). @default true */
  DB_PREPARED_STATEMENTS: yup.boolean().typeError('must be true or false').default(true),
  /** Folder for the embedded database, generated secret, outbox and uploads. @default ./data */
  DATA_DIR: yup.string().default('./data'),
  /** Folder of the project's own migrations, run by `tessera migrate` after the system ones. @default ./project-migrations */
  MIGRATIONS_PATH: yup.string().default('./project-migrations'),
  /** Key for signing tokens and deriving encryption keys; at least 32 characters. Required in production. */
  SECRET: yup.string().min(32, 'must be at least 32 characters').optional(),
  /** E-mail of the administrator created when the database is empty. @default admin@example.com */
  ADMIN_EMAIL: yup.string().email('must be an e-mail address').default('admin@example.com'),
  /** Password of that administrator; generated and printed once when unset. */
  ADMIN_PASSWORD: yup.string().min(8, 'must be at least 8 characters').optional(),
  /** Log verbosity. @default info */
  LOG_LEVEL: yup.string().oneOf(LOG_LEVELS).default('info'),
  /** `pretty` for people, `raw` for JSON lines, `auto` picks pretty on a terminal. @default auto */
  LOG_STYLE: yup.string().oneOf(['auto', 'pretty', 'raw']).default('auto'),
  /** Largest accepted JSON or form body. @default 1mb */
  MAX_PAYLOAD_SIZE: yup.number().transform(toBytes).typeError('must be a size such as 1mb or 512kb').positive().default(1024 * 1024),
  /** Lifetime of access tokens. @default 15m */
  ACCESS_TOKEN_TTL: duration('15m'),
  /** Lifetime of refresh tokens and sessions (SPEC §9: 30 days). @default 30d */
  REFRESH_TOKEN_TTL: duration('30d'),
  /** How long shutdown waits for open requests to finish, then for database connections still in use. @default 10s */
  SHUTDOWN_TIMEOUT: duration('10s'),
  /** Items a read returns when it names no `limit`. @default 100 */
  QUERY_LIMIT_DEFAULT: yup.number().typeError('must be a number').integer().positive().default(100),
  /** Items an export (`?export=`, /utils/export) reads per statement while it streams; memory grows with it, not with the export. @default 1000 */
  EXPORT_BATCH_SIZE: yup.number().typeError('must be a number').integer().positive().default(1000),
  /** Redis for state shared between instances (schema-cache invalidation); unset: this process only. */
  REDIS_URL: yup
    .string()
    .matches(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .test('url', 'must be a valid URL (password percent-encoded, port a number)', (value) => value === undefined || isUrl(value))
    .optional(),
  /** Largest `limit` a read may ask for; `limit=-1` means this many. Unset: no cap. */
  QUERY_LIMIT_MAX: yup.number().typeError('must be a number').integer().positive().optional(),
  /** Segments a field path in `fields`, `sort`, `filter` or `deep` may have (Directus's counting; at least 2). @default 10 */
  MAX_RELATIONAL_DEPTH: yup.number().typeError('must be a number').integer().positive().default(10),
  /** Items one write request may create, update or delete, nested ones included. Unset: no cap. */
  MAX_BATCH_MUTATION: yup.number().typeError('must be a number').integer().positive().optional(),
  /** What a write does with a field its user collection does not have: `refuse` (400 naming it) or `ignore` (drop it after the filter hooks, as Directus does). @default refuse */
  ITEMS_UNKNOWN_FIELDS: yup.string().oneOf(['refuse', 'ignore'], 'must be refuse or ignore').default('refuse'),
  /** Send CORS headers. @default false */
  CORS_ENABLED: yup.boolean().typeError('must be true or false').default(false),
  /** Allowed origins, comma-separated, or `*` for any. @default * */
  CORS_ORIGIN: list(['*']),
  /** Allowed methods. @default GET,POST,PATCH,DELETE */
  CORS_METHODS: list(['GET', 'POST', 'PATCH', 'DELETE']),
  /** Allowed request headers. @default Content-Type,Authorization */
  CORS_ALLOWED_HEADERS: list(['Content-Type', 'Authorization']),
  /** Response headers exposed to scripts. @default Content-Range */
  CORS_EXPOSED_HEADERS: list(['Content-Range']),
  /** Allow cookies on cross-origin requests. @default true */
  CORS_CREDENTIALS: yup.boolean().typeError('must be true or false').default(true),
  /** Seconds a preflight answer may be cached. @default 18000 */
  CORS_MAX_AGE: yup.number().typeError('must be a number of seconds').integer().min(0).default(18000),
  /** How e-mail leaves: `outbox` (files in DATA_DIR/outbox plus the log, for development), `ses` or `smtp`. @default outbox */
  EMAIL_TRANSPORT: yup.string().oneOf(['outbox', 'ses', 'smtp']).default('outbox'),
  /** Sender address of every e-mail; `Name <address>` is allowed. @default no-reply@example.com */
  EMAIL_FROM: yup.string().matches(/^[^\r\n]*@[^\r\n]*$/, 'must be an e-mail address, optionally as Name <address>').default('no-reply@example.com'),
  /** AWS region of Amazon SES (v2 API). @default us-east-1 */
  EMAIL_SES_REGION: yup.string().matches(/^[a-z0-9-]+$/, 'must be an AWS region such as eu-west-1').default('us-east-1'),
  /** SES endpoint override (a local emulator, a VPC endpoint); unset: the region's public endpoint. */
  EMAIL_SES_ENDPOINT: yup.string().test('http-url', 'must be an absolute http:// or https:// URL', (value) => value === undefined || isHttpUrl(value)).optional(),
  /** SES access key id; unset: the AWS SDK's default credential chain (environment, profile, instance role). */
  EMAIL_SES_ACCESS_KEY_ID: yup.string().optional(),
  /** SES secret access key, required together with EMAIL_SES_ACCESS_KEY_ID. */
  EMAIL_SES_SECRET_ACCESS_KEY: yup.string().optional(),
  /** SMTP server host; required when EMAIL_TRANSPORT is smtp. */
  EMAIL_SMTP_HOST: yup.string().matches(/^[^\s/:]+$|^\[[0-9a-fA-F:.]+\]$/, 'must be a host name or IP address, without scheme or port').optional(),
  /** SMTP server port. @default 465 when EMAIL_SMTP_SECURE is true, else 587 */
  EMAIL_SMTP_PORT: yup.number().typeError('must be a port number').integer('must be a port number').min(1, 'must be a port number').max(65535, 'must be a port number').optional(),
  /** Implicit TLS from the first byte (port 465); false: plain, upgraded with STARTTLS when offered. @default false */
  EMAIL_SMTP_SECURE: yup.boolean().typeError('must be true or false').default(false),
  /** Never upgrade with STARTTLS, even when the server offers it. @default false */
  EMAIL_SMTP_IGNORE_TLS: yup.boolean().typeError('must be true or false').default(false),
  /** Fail unless the server upgrades with STARTTLS (when EMAIL_SMTP_SECURE is false). @default false */
  EMAIL_SMTP_REQUIRE_TLS: yup.boolean().typeError('must be true or false').default(false),
  /** SMTP user name; unset: no authentication. */
  EMAIL_SMTP_USER: yup.string().optional(),
  /** SMTP password, required together with EMAIL_SMTP_USER. */
  EMAIL_SMTP_PASSWORD: yup.string().optional(),
  /** Host name Tessera gives in EHLO. @default the machine's host name */
  EMAIL_SMTP_NAME: yup.string().matches(/^[A-Za-z0-9.-]+$/, 'must be a host name').optional(),
  /** Extra trusted certificate authority (PEM text, or a file through EMAIL_SMTP_TLS_CA_FILE) for a private server. */
  EMAIL_SMTP_TLS_CA: yup.string().matches(/-----BEGIN CERTIFICATE-----/, 'must be a PEM certificate').optional(),
  /** Refuse a server certificate that does not verify; false only for testing. @default true */
  EMAIL_SMTP_TLS_REJECT_UNAUTHORIZED: yup.boolean().typeError('must be true or false').default(true),
  /** Lifetime of the link a password-reset e-mail carries. @default 1h */
  PASSWORD_RESET_TOKEN_TTL: duration('1h'),
  /** Memory each argon2id password hash uses, in KiB (at least 8 per HASH_PARALLELISM lane). @default 65536 */
  HASH_MEMORY_COST: yup.number().typeError('must be a number of KiB').integer('must be a whole number of KiB').min(8, 'must be at least 8 (KiB)').max(4_194_304, 'must be at most 4194304 (4 GiB)').default(65_536),
  /** Passes argon2id makes over that memory per password hash. @default 3 */
  HASH_TIME_COST: yup.number().typeError('must be a number').integer('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(3),
  /** Lanes (threads) of each argon2id password hash. @default 4 */
  HASH_PARALLELISM: yup.number().typeError('must be a number').integer('must be a whole number').min(1, 'must be at least 1').max(64, 'must be at most 64').default(4),
  /** Pages besides PUBLIC_URL/admin/reset-password that `reset_url` may name, comma-separated. @default empty */
  PASSWORD_RESET_URL_ALLOW_LIST: urlList(),
  /** Lifetime of the link an invitation e-mail carries. @default 7d */
  USER_INVITE_TOKEN_TTL: duration('7d'),
  /** Pages besides PUBLIC_URL/admin/accept-invite that `invite_url` may name, comma-separated. @default empty */
  USER_INVITE_URL_ALLOW_LIST: urlList(),
  /** Lifetime of the link a public registration's verification e-mail carries. @default 7d */
  EMAIL_VERIFICATION_TOKEN_TTL: duration('7d'),
  /** Pages besides PUBLIC_URL/users/register/verify-email that `verification_url` (POST /users/register) may name, comma-separated. @default empty */
  USER_REGISTER_URL_ALLOW_LIST: urlList(),
  /** Sign-in providers, comma-separated names; each is configured by AUTH_<NAME>_* (config/auth-provider-variables.ts). @default empty */
  AUTH_PROVIDERS: list([]),
  /** Named storage locations, comma-separated; each is configured by STORAGE_<NAME>_* (storageVariablesSchema); the first takes new uploads. @default local */
  STORAGE_LOCATIONS: list(['local']).test('not-empty', 'must name at least one location', (values) => (values ?? []).length > 0),
  /** Largest accepted file upload or import. @default 100mb */
  FILES_MAX_UPLOAD_SIZE: yup.number().transform(toBytes).typeError('must be a size such as 100mb or 1gb').positive().default(100 * 1024 * 1024),
  /** MIME types an upload may have (sniffed from the content), comma-separated; `image/*` wildcards allowed. @default *\/* */
  FILES_MIME_TYPE_ALLOW_LIST: list(['*/*']).test('mime-patterns', 'must list MIME types such as image/png, image/* or */*', (values) => (values ?? []).every((value) => /^[\w.+-]+\/(\*|[\w.+-]+)$|^\*\/\*$/.test(value))),
  /** Hosts `POST /files/import` may fetch from, comma-separated (`cdn.example.com`, `*.example.com`, `*`). @default empty: import disabled */
  FILES_IMPORT_ALLOWED_HOSTS: list([]),
  /** How long an import may take to answer and to download. @default 10s */
  FILES_IMPORT_TIMEOUT: duration('10s'),
  /** Hosts, addresses or CIDRs (`127.0.0.1`, `10.0.0.0/8`, `hooks.internal`) that webhooks and other outbound calls may reach although they are loopback, private, link-local or metadata addresses, comma-separated. @default empty */
  OUTBOUND_ALLOWED_HOSTS: list([]),
  /** Environment variables flows may read as `{{ $env.NAME }}`, comma-separated. @default empty */
  FLOWS_ENV_ALLOW_LIST: list([]),
  /** Folder of the project's extensions: one folder each, with a package.json whose `directus:extension` (or `tessera:extension`) describes it (docs/extensions.md). @default ./extensions */
  EXTENSIONS_PATH: yup.string().default('./extensions'),
  /** Reload extensions when their files change (for development). @default false */
  EXTENSIONS_AUTO_RELOAD: yup.boolean().typeError('must be true or false').default(false),
  /** Memory of a sandboxed extension's QuickJS heap, in MB (as Directus). @default 100 */
  EXTENSIONS_SANDBOX_MEMORY: yup.number().typeError('must be a number of MB').integer('must be a whole number of MB').min(1, 'must be at least 1').max(1024, 'must be at most 1024').default(100),
  /** Time one run of a sandboxed extension's code may take before it is interrupted and the extension stopped, in ms (as Directus). @default 1000 */
  EXTENSIONS_SANDBOX_TIMEOUT: yup.number().typeError('must be a number of ms').integer('must be a whole number of ms').min(10, 'must be at least 10').max(60_000, 'must be at most 60000').default(1000),
  /** Wall-clock time one `exec` operation's script may run before it is interrupted and its worker thread terminated. @default 1s */
  FLOWS_EXEC_TIMEOUT: duration('1s').max(5 * 60_000, 'must be at most 5m'),
  /** `exec` scripts one process runs at once (each on a worker thread of its own); more wait their turn. @default 2 */
  FLOWS_EXEC_MAX_CONCURRENT: yup.number().typeError('must be a number').integer().min(1).max(64).default(2),
  /** Memory the QuickJS heap of one `exec` script may use. @default 16mb */
  FLOWS_EXEC_MAX_MEMORY: yup.number().transform(toBytes).typeError('must be a size such as 16mb').min(1024 * 1024, 'must be at least 1mb').max(1024 * 1024 * 1024, 'must be at most 1gb').default(16 * 1024 * 1024),
  /** How long claimed schedule ticks (tessera_automation.flow_ticks of schedule flows, schedule_ticks of extension schedules) are kept; they only keep two instances from running one tick twice. @default 1d */
  RETENTION_SCHEDULE_TICKS: retention('1d'),
  /** How long webhook delivery log rows (GET /webhooks/:id/deliveries) are kept. @default 30d */
  RETENTION_WEBHOOK_DELIVERIES: retention('30d'),
  /** How long flow run logs (activity rows with action `run` on tessera_flows, and their revisions) are kept. @default 30d */
  RETENTION_FLOW_RUNS: retention('30d'),
  /** Where webhook deliveries and action flow runs are worked on: `process` (a child process of `tessera start` at a lower OS priority, so requests win the CPU), `inline` (in the serving process) or `off` (none here: run `tessera worker` elsewhere). @default process with DB_URL, inline on the embedded database */
  JOBS_WORKER: yup.string().oneOf(['process', 'inline', 'off']).optional(),
  /** Webhook deliveries and flow runs that still start per second while requests keep the server saturated (busy ≥ 90 % of the time); below that jobs start at once. 0: jobs wait until the load eases. @default 20 */
  JOBS_BUSY_RATE: yup.number().typeError('must be a number').min(0).max(100_000).default(20),
  /** Cache-Control max-age of assets. @default 30d */
  ASSETS_CACHE_TTL: duration('30d'),
  /** Image transformations that may run at once in this process; more wait (or get 503, see ASSETS_TRANSFORM_QUEUE). @default 4 */
  ASSETS_TRANSFORM_MAX_CONCURRENT: yup.number().typeError('must be a number').integer().min(1).max(256).default(4),
  /** `true`: transformations beyond ASSETS_TRANSFORM_MAX_CONCURRENT wait their turn; `false`: they are refused with 503 SERVICE_UNAVAILABLE at once, as Directus does. @default true */
  ASSETS_TRANSFORM_QUEUE: yup.boolean().typeError('must be true or false').default(true),
  /** Largest width or height of a transformed image, and the square root of the largest input in pixels. @default 6000 */
  ASSETS_TRANSFORM_IMAGE_MAX_DIMENSION: yup.number().typeError('must be a number').integer().min(1).max(100_000).default(6000),
  /** How long one transformation may run. @default 10s */
  ASSETS_TRANSFORM_TIMEOUT: duration('10s'),
  /** `pretty` (readable lines), `json` (JSON lines) or `auto` (pretty on a terminal); wins over LOG_STYLE. @default auto */
  LOG_FORMAT: yup.string().oneOf(['auto', 'pretty', 'json']).optional(),
  /** How long a request waits to connect to PostgreSQL, or for a free pool connection, before 503 SERVICE_UNAVAILABLE. @default 10s */
  DB_CONNECT_TIMEOUT: duration('10s'),
  /** Output fields one read may select once `*` wildcards are expanded (across every relation). @default 1000 */
  QUERY_MAX_FIELDS: yup.number().typeError('must be a number').integer().positive().default(1000),
  /** Related collections one read may select (each is a subquery), wildcards expanded. @default 100 */
  QUERY_MAX_RELATIONS: yup.number().typeError('must be a number').integer().positive().default(100),
  /** Longest a single SQL statement may run before PostgreSQL cancels it (503 QUERY_TIMEOUT); 0 turns it off. @default 10s */
  DB_STATEMENT_TIMEOUT: yup.number().transform(toMilliseconds).typeError('must be a duration such as 10s or 500ms').integer().min(0).default(10_000),
  /** How long a client may take to send the request headers (node:http headersTimeout); slow clients get 408. @default 60s */
  SERVER_HEADERS_TIMEOUT: duration('60s'),
  /** How long a client may take to send a whole request, body included (node:http requestTimeout). @default 5m */
  SERVER_REQUEST_TIMEOUT: duration('5m'),
  /** Whether /graphql and /graphql/system answer introspection queries (`__schema`, `__type`). @default true */
  GRAPHQL_INTROSPECTION: yup.boolean().typeError('must be true or false').default(true),
  /** Deepest selection a GraphQL query may nest (400 past it). @default 10 */
  GRAPHQL_QUERY_DEPTH_MAX: yup.number().typeError('must be a number').integer().positive().default(10),
  /** Most fields a GraphQL query may select in all (each list field counts 10), 400 past it. @default 1000 */
  GRAPHQL_QUERY_COST_MAX: yup.number().typeError('must be a number').integer().positive().default(1000),
  /** How long an idle keep-alive connection stays open (node:http keepAliveTimeout). @default 5s */
  SERVER_KEEP_ALIVE_TIMEOUT: duration('5s'),
  /** Open connections the server accepts at once; more are closed at once (node:http maxConnections). 0: no cap. @default 0 */
  SERVER_MAX_CONNECTIONS: yup.number().typeError('must be a number').integer().min(0).default(0),
  /** Limit requests per client (user when signed in, else IP address). @default false */
  RATE_LIMITER_ENABLED: yup.boolean().typeError('must be true or false').default(false),
  /** Requests one client may make per RATE_LIMITER_DURATION. @default 50 */
  RATE_LIMITER_POINTS: yup.number().typeError('must be a number').integer().positive().default(50),
  /** Length of the rate-limit window. @default 1s */
  RATE_LIMITER_DURATION: duration('1s').test('whole-seconds', 'must be a whole number of seconds such as 1s, 10s or 1m', (value) => value === undefined || value % 1000 === 0),
  /** Where counts live: `redis` (REDIS_URL, shared by instances; memory while Redis is down) or `memory`. @default redis when REDIS_URL is set, else memory */
  RATE_LIMITER_STORE: yup.string().oneOf(['redis', 'memory']).optional(),
  /** Serve Prometheus metrics at `/metrics` (docs/operations.md, "Metrics"); off, nothing of it is loaded. @default false */
  METRICS_ENABLED: yup.boolean().typeError('must be true or false').default(false),
  /** Tokens a scraper may send as `Authorization: Bearer <token>` (or Directus's `Metrics <token>`) to read `/metrics`. @default none */
  METRICS_TOKENS: list([]),
  /** IP addresses or CIDR ranges that may read `/metrics` without a token. @default none */
  METRICS_ALLOWED_IPS: list([]).test('ips', 'must list IP addresses or CIDR ranges such as 10.0.0.0/8', (values) => (values ?? []).every(isIpOrCidr)),
  /** Turns every OpenTelemetry signal off, whatever else is set (the SDK's standard switch). @default false */
  OTEL_SDK_DISABLED: yup.boolean().typeError('must be true or false').default(false),
  /** `otlp` sends traces (to OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318), `none` sends none. @default otlp when an endpoint is set, else none */
  OTEL_TRACES_EXPORTER: yup.string().oneOf(['otlp', 'none'], 'must be otlp or none').optional(),
  /** Base URL of the OTLP/HTTP receiver; traces go to `<it>/v1/traces` (docs/operations.md, "Traces"). @default unset: no traces */
  OTEL_EXPORTER_OTLP_ENDPOINT: yup.string().test('http-url', 'must be an absolute http:// or https:// URL', (value) => value === undefined || isHttpUrl(value)).optional(),
  /** Full URL traces are sent to, used as is (overrides OTEL_EXPORTER_OTLP_ENDPOINT for traces). @default unset */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: yup.string().test('http-url', 'must be an absolute http:// or https:// URL', (value) => value === undefined || isHttpUrl(value)).optional(),
  /** Encoding of exported traces: `http/protobuf` or `http/json` (gRPC is not supported). @default http/protobuf */
  OTEL_EXPORTER_OTLP_PROTOCOL: yup.string().oneOf(OTLP_PROTOCOLS, 'must be http/protobuf or http/json (grpc is not supported)').default('http/protobuf'),
  /** OTEL_EXPORTER_OTLP_PROTOCOL for traces only. @default OTEL_EXPORTER_OTLP_PROTOCOL */
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: yup.string().oneOf(OTLP_PROTOCOLS, 'must be http/protobuf or http/json (grpc is not supported)').optional(),
  /** `service.name` of the spans this process sends. @default tessera */
  OTEL_SERVICE_NAME: yup.string().default('tessera'),
  /** Which traces are recorded: always_on, always_off, traceidratio or their parentbased_ forms (which follow an incoming traceparent's decision). @default parentbased_always_on */
  OTEL_TRACES_SAMPLER: yup.string().oneOf(TRACE_SAMPLERS, `must be one of ${TRACE_SAMPLERS.join(', ')}`).default('parentbased_always_on'),
  /** The share of traces a `traceidratio` sampler records, from 0 to 1. @default 1 */
  OTEL_TRACES_SAMPLER_ARG: yup.number().typeError('must be a number from 0 to 1').min(0, 'must be a number from 0 to 1').max(1, 'must be a number from 0 to 1').default(1),
  /** Milliseconds between two exports of buffered spans (the batch span processor's delay). @default 5000 */
  OTEL_BSP_SCHEDULE_DELAY: yup.number().typeError('must be a number of milliseconds').integer().positive().default(5000),
  /** Spans buffered at most; past it new spans are dropped until the next export. @default 2048 */
  OTEL_BSP_MAX_QUEUE_SIZE: yup.number().typeError('must be a number').integer().positive().default(2048),
  /** Serve the Model Context Protocol at `/mcp` (docs/mcp.md); off, nothing of it is loaded. @default false */
  MCP_ENABLED: yup.boolean().typeError('must be true or false').default(false),
  /** Let MCP tools write (items create/update/delete, file imports, manual flow runs), each call still with `confirm: true`. @default false */
  MCP_ALLOW_WRITES: yup.boolean().typeError('must be true or false').default(false),
  /** Serve the realtime WebSocket endpoint `/websocket`. @default true */
  WEBSOCKETS_ENABLED: yup.boolean().typeError('must be true or false').default(true),
  /** Who may use `/websocket`: `public` (anyone, as the public role until `auth`), `handshake` (first message must be `auth`), `strict` (the token comes with the upgrade request, else 401). @default handshake */
  WEBSOCKETS_REST_AUTH: yup.string().oneOf(['public', 'handshake', 'strict']).default('handshake'),
  /** The path of the realtime endpoint (Directus's variable); `/graphql` is taken by graphql-ws. @default /websocket */
  WEBSOCKETS_REST_PATH: yup.string().matches(/^\/[A-Za-z0-9._~\/-]*$/, 'must be a path starting with /, such as /websocket').notOneOf(['/graphql'], 'must not be /graphql (graphql-ws serves it)').default('/websocket'),
  /** Seconds a `handshake` connection may stay without an `auth` message before AUTH_TIMEOUT closes it. @default 10 */
  WEBSOCKETS_REST_AUTH_TIMEOUT: yup.number().typeError('must be a number of seconds').positive('must be a number of seconds above 0').default(10),
  /** Seconds between server pings; a connection that answers none of two is closed. 0 turns the heartbeat off. @default 30 */
  WEBSOCKETS_HEARTBEAT_PERIOD: yup.number().typeError('must be a number').min(0).default(30),
  /** Open WebSocket connections per user (or per IP for the public) on one instance. @default 20 */
  WEBSOCKETS_MAX_CONNECTIONS_PER_USER: yup.number().typeError('must be a number').integer().positive().default(20),
  /** Subscriptions per connection. @default 100 */
  WEBSOCKETS_MAX_SUBSCRIPTIONS: yup.number().typeError('must be a number').integer().positive().default(100),
  /** Largest WebSocket message accepted, in bytes; larger ones close the connection (1009). @default 1048576 */
  WEBSOCKETS_MAX_MESSAGE_SIZE: yup.number().typeError('must be a number').integer().positive().default(1_048_576),
  /** Reads whose 95th-percentile time reaches this are listed by /utils/index-advice; 0 lists every sorted, filtered or searched read. @default 50ms */
  INDEX_ADVICE_THRESHOLD: yup.number().transform(toMilliseconds).typeError('must be a duration such as 50ms or 1s').min(0).default(50),
  /** Query shapes (collection + sort + filter fields + search) whose timings are kept in memory; the least recently seen go first. @default 500 */
  INDEX_ADVICE_MAX_SHAPES: yup.number().typeError('must be a number').integer().positive().default(500),
  /** IANA time zone of the project: Insights date buckets and date grouping use it. @default UTC */
  PROJECT_TIME_ZONE: yup.string().default('UTC').test('iana-zone', 'must be an IANA time zone such as UTC or Europe/Lisbon', (value) => value === undefined || isTimeZone(value)),
  /** Cache GET responses of items and system reads (docs/cache.md). @default false */
  CACHE_ENABLED: yup.boolean().typeError('must be true or false').default(false),
  /** Where cached responses live: `memory` (this instance; purges reach other instances through REDIS_URL) or `redis` (shared by instances; needs REDIS_URL). @default memory */
  CACHE_STORE: yup.string().oneOf(['memory', 'redis']).default('memory'),
  /** How long a cached response is kept when nothing purges it. @default 5m */
  CACHE_TTL: duration('5m'),
  /** Purge the cached responses of a collection when its items are created, updated or deleted. @default true */
  CACHE_AUTO_PURGE: yup.boolean().typeError('must be true or false').default(true),
  /** Prefix of the cache's Redis keys and channel (after the project's namespace). @default system-cache */
  CACHE_NAMESPACE: yup.string().matches(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1 to 64 letters, digits or _ . : -').default('system-cache'),
  /** Seconds shared caches (CDNs, proxies) may keep a cached response (`s-maxage` of Cache-Control); unset: none. @default unset */
  CACHE_CONTROL_S_MAXAGE: yup.number().typeError('must be a number of seconds').integer().min(0).optional(),
  /** Let a request skip the cache with `Cache-Control: no-store`. @default false */
  CACHE_SKIP_ALLOWED: yup.boolean().typeError('must be true or false').default(false),
  /** Largest response body kept in the cache, in bytes; larger ones are served uncached. @default 1048576 */
  CACHE_MAX_ENTRY_SIZE: yup.number().typeError('must be a number').integer().positive().default(1_048_576),
  /** Memory store: total bytes of cached bodies kept by one instance (least recently used go first). @default 67108864 */
  CACHE_MEMORY_MAX_SIZE: yup.number().typeError('must be a number').integer().positive().default(67_108_864),
});

/** The raw, validated variables. */
export type Variables = yup.InferType<typeof variablesSchema>;

/** Variable names, in documentation order. */
export const VARIABLE_NAMES = Object.keys(variablesSchema.fields) as Array<keyof Variables>;

/**
 * The variables of one storage location, read as `STORAGE_<NAME>_<SUFFIX>` for every name in
 * STORAGE_LOCATIONS (docs/config.md, "Storage locations").
 */
export const storageVariablesSchema = yup.object({
  /** `local` (a folder) or `s3` (an S3-compatible bucket). @default local */
  DRIVER: yup.string().oneOf(['local', 's3']).default('local'),
  /** local: the folder (relative to the working folder); s3: a key prefix. @default DATA_DIR/uploads (local), none (s3) */
  ROOT: yup.string().optional(),
  /** s3: bucket name. Required for s3. */
  BUCKET: yup.string().min(3, 'must be 3 to 63 characters').max(63, 'must be 3 to 63 characters').optional(),
  /** s3: endpoint of an S3-compatible service; unset: AWS for the region. */
  ENDPOINT: yup.string().test('http-url', 'must be an absolute http:// or https:// URL', (value) => value === undefined || isHttpUrl(value)).optional(),
  /** s3: access key id; unset: the AWS SDK's default credential chain. */
  KEY: yup.string().optional(),
  /** s3: secret access key, set together with KEY. */
  SECRET: yup.string().optional(),
  /** s3: region. @default us-east-1 */
  REGION: yup.string().matches(/^[a-z0-9-]+$/, 'must be a region such as eu-west-1').default('us-east-1'),
  /** s3: address buckets by path (most S3-compatible servers need it). @default false */
  FORCE_PATH_STYLE: yup.boolean().typeError('must be true or false').default(false),
});

/** The raw, validated variables of one storage location. */
export type StorageVariables = yup.InferType<typeof storageVariablesSchema>;

/** Suffixes of the per-location variables, in documentation order. */
export const STORAGE_VARIABLE_SUFFIXES = Object.keys(storageVariablesSchema.fields) as Array<keyof StorageVariables>;
