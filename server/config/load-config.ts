import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ValidationError } from 'yup';
import { ConfigError } from '../errors.ts';
import { VARIABLE_NAMES, variablesSchema, type Variables } from './variables.ts';

/** Tessera's settings, typed and frozen; built once at an entry point and passed down. */
export interface Config {
  env: 'development' | 'production' | 'test';
  server: {
    host: string;
    port: number;
    publicUrl: string;
    maxPayloadSize: number;
    shutdownTimeoutMs: number;
  };
  database: {
    /** PostgreSQL URL, or null for the embedded database. */
    url: string | null;
    poolMax: number;
  };
  dataDir: string;
  /** Null only outside production, where the CLI provides a generated one. */
  secret: string | null;
  admin: { email: string; password: string | null };
  log: { level: Variables['LOG_LEVEL']; style: Variables['LOG_STYLE'] };
  auth: { accessTokenTtlMs: number; refreshTokenTtlMs: number };
  query: { limitDefault: number; limitMax: number | null };
  redis: { url: string | null };
  cors: {
    enabled: boolean;
    origin: string[];
    methods: string[];
    allowedHeaders: string[];
    exposedHeaders: string[];
    credentials: boolean;
    maxAge: number;
  };
}

type Env = Record<string, string | undefined>;

/** Resolves `NAME_FILE` variables to the trimmed contents of the files they point to. */
function readFileVariables(env: Env, problems: string[]): Env {
  const resolved: Env = {};
  for (const name of VARIABLE_NAMES) {
    const fromFile = env[`${name}_FILE`];
    if (fromFile === undefined || fromFile === '') {
      resolved[name] = env[name] === '' ? undefined : env[name];
      continue;
    }
    try {
      resolved[name] = readFileSync(fromFile, 'utf8').trim();
    } catch (error) {
      problems.push(`${name}_FILE: cannot read ${fromFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return resolved;
}

/**
 * Reads, casts and validates every setting from `env`. Throws one ConfigError that names every bad
 * variable. Pure apart from reading `*_FILE` files; `cwd` anchors relative paths.
 */
export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const raw = readFileVariables(env, problems);
  let vars: Variables | undefined;
  try {
    vars = variablesSchema.validateSync(raw, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.inner.length > 0 ? error.inner : [error]) {
      const name = issue.path ?? 'config';
      const message = issue.message.startsWith(`${name} `) ? issue.message.slice(name.length + 1) : issue.message;
      problems.push(`${name}: ${message} (got ${JSON.stringify(raw[name])})`);
    }
  }
  if (raw.NODE_ENV === 'production' && !raw.SECRET) {
    problems.push('SECRET: is required when NODE_ENV is production (run `tessera init` or set a random string of 32+ characters)');
  }
  if (problems.length > 0 || !vars) throw new ConfigError(problems);
  return freezeDeep(toConfig(vars, cwd));
}

function toConfig(vars: Variables, cwd: string): Config {
  return {
    env: vars.NODE_ENV as Config['env'],
    server: {
      host: vars.HOST,
      port: vars.PORT,
      publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, ''),
      maxPayloadSize: vars.MAX_PAYLOAD_SIZE,
      shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT,
    },
    database: { url: vars.DB_URL ?? null, poolMax: vars.DB_POOL_MAX },
    dataDir: path.resolve(cwd, vars.DATA_DIR),
    secret: vars.SECRET ?? null,
    admin: { email: vars.ADMIN_EMAIL.toLowerCase(), password: vars.ADMIN_PASSWORD ?? null },
    log: { level: vars.LOG_LEVEL as Config['log']['level'], style: vars.LOG_STYLE as Config['log']['style'] },
    auth: { accessTokenTtlMs: vars.ACCESS_TOKEN_TTL, refreshTokenTtlMs: vars.REFRESH_TOKEN_TTL },
    redis: { url: vars.REDIS_URL ?? null },
    query: { limitDefault: vars.QUERY_LIMIT_DEFAULT, limitMax: vars.QUERY_LIMIT_MAX ?? null },
    cors: {
      enabled: vars.CORS_ENABLED,
      origin: vars.CORS_ORIGIN,
      methods: vars.CORS_METHODS,
      allowedHeaders: vars.CORS_ALLOWED_HEADERS,
      exposedHeaders: vars.CORS_EXPOSED_HEADERS,
      credentials: vars.CORS_CREDENTIALS,
      maxAge: vars.CORS_MAX_AGE,
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
