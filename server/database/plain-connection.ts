import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { CANCEL_ON_ABORT, CancellableClient } from './cancellable-client.ts';
import { configuredDatabaseUrl } from './database-url.ts';
import { PreparingClient } from './prepared-statements.ts';

/** A database opened without MikroORM: Kysely on a pg pool, for commands that only read (`diff`, `snapshot`). */
export interface PlainDatabase {
  kysely: Kysely<any>;
  /** True when this process serves the embedded PGlite database. */
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * The type parsers MikroORM's PostgreSQL connection installs (createOrm), which the schema reader and the
 * snapshot planner see: date, timestamp, timestamptz and interval stay the strings PostgreSQL sent, and
 * their arrays are arrays of those strings. tests/integration/database/plain-connection.test.ts compares them.
 */
function mikroOrmTypeParsers(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  const asString = (value: string) => value;
  const arrayOfStrings = (value: string) => (pg.types as unknown as ArrayParsers).arrayParser.create(value).parse();
  for (const oid of [1082, 1114, 1184, 1186]) types.setTypeParser(oid, asString);
  for (const oid of [1182, 1115, 1185, 1187]) types.setTypeParser(oid, arrayOfStrings);
  return types;
}

/** pg-types' array parser (postgres-array without a transform), untyped in @types/pg. */
interface ArrayParsers {
  arrayParser: { create(source: string): { parse(): unknown[] } };
}

/** pg's connection settings from a URL, read as MikroORM reads DB_URL (host, port, user, password, database only). */
function connectionSettings(url: string): pg.PoolConfig {
  const parsed = new URL(url);
  return {
    host: decodeURIComponent(parsed.hostname),
    port: +parsed.port,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname).replace(/^\//, ''),
  };
}

/**
 * Opens the configured database (DB_URL, or the embedded one in DATA_DIR) the way openDatabase does, with the
 * same pool settings, client class and type parsers, but without loading MikroORM (~180 modules): nothing a
 * reading command runs needs its entity manager, transactions or migrator.
 */
export async function openPlainDatabase(config: Config, logger: Logger): Promise<PlainDatabase> {
  const { url, embedded } = await configuredDatabaseUrl(config, logger);
  const { preparedStatements, connectTimeoutMs, statementTimeoutMs, poolMax } = config.database;
  const pool = new pg.Pool({
    ...connectionSettings(url),
    min: 0,
    max: poolMax,
    types: mikroOrmTypeParsers(),
    Client: preparedStatements === false ? CancellableClient : PreparingClient,
    ...(embedded === null ? { [CANCEL_ON_ABORT]: true } : {}),
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    ...(embedded === null && connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
    keepAlive: true,
  } as pg.PoolConfig);
  // A dropped connection is an 'error' event; unheard, it would end the process (as MikroORM guards it).
  pool.on('connect', (client) => client.on('error', (error) => logger.warn(`PostgreSQL connection error: ${error.message}`)));
  pool.on('error', (error) => logger.warn(`PostgreSQL pool error: ${error.message}`));
  const kysely = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    embedded: embedded !== null,
    async close() {
      await kysely.destroy();
      await embedded?.close();
    },
  };
}
