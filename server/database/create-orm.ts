import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { systemMigrations } from '../../migrations/index.ts';
import { MIGRATIONS_TABLE } from '../../migrations/names.ts';
import { CANCEL_ON_ABORT, CancellableClient } from './cancellable-client.ts';
import { PreparingClient } from './prepared-statements.ts';

/** The MikroORM instance type Tessera uses. */
export type Orm = MikroORM;

/**
 * Connects MikroORM to PostgreSQL. Tessera's collections are defined at run time, so there are no
 * decorated entities: reads and writes are compiled by the query layer and run through the ORM's
 * connection, transactions and Kysely instance; MikroORM's migrator owns the system schema.
 */
export async function createOrm(url: string, poolMax: number, logger: Logger, options: { preparedStatements?: boolean; connectTimeoutMs?: number; statementTimeoutMs?: number; cancelOnAbort?: boolean } = {}): Promise<Orm> {
  return MikroORM.init({
    clientUrl: url,
    driverOptions: {
      // pg's Pool takes the client class to create; ours runs the query layer's reads as prepared statements.
      Client: options.preparedStatements === false ? CancellableClient : PreparingClient,
      ...(options.cancelOnAbort ? { [CANCEL_ON_ABORT]: true } : {}),
      // statement_timeout is sent in each connection's startup packet: a session setting that holds for every
      // statement, prepared ones included, at no cost per query (docs/security.md).
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      // Bounds connecting (an unreachable host would otherwise wait out TCP's retries, minutes) and waiting
      // for a free connection; either then fails as a pool timeout, answered 503. Unset: no limit.
      ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      // Lets the OS notice a server that vanished without closing the connection.
      keepAlive: true,
    },
    entities: [],
    // Connecting never creates a missing database: only the commands that migrate do (openSystemContext), so
    // `users list` or `diff` against a mistyped DB_URL report it instead of creating an empty database there.
    ensureDatabase: false,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    debug: logger.isLevelEnabled('trace'),
    logger: (message) => logger.trace({ orm: true }, message),
    migrations: {
      tableName: MIGRATIONS_TABLE,
      migrationsList: systemMigrations,
      snapshot: false,
      snapshotOnMigrate: false,
      silent: true,
      transactional: true,
      allOrNothing: true,
    },
  });
}
