import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import { closeOrmWithin, type ConnectionInUse } from './close-pool.ts';
import { createOrm, type Orm } from './create-orm.ts';
import { configuredDatabaseUrl } from './database-url.ts';
import type { LockControl } from './embedded-lock.ts';

/** An open database: the ORM (connection pool, transactions, migrator) and how to close it all. */
export interface Database {
  orm: Orm;
  /** True when this process serves the embedded PGlite database. */
  embedded: boolean;
  /** On the embedded database, records in DATA_DIR/tessera.lock where this process takes CLI notices; elsewhere nothing. */
  setControl(control: LockControl | null): void;
  /** Kysely bound to the ORM's pool: the query layer's way to run parameterised SQL. */
  kysely(): Kysely<any>;
  /** Runs `select 1`; throws when the database cannot answer. */
  ping(): Promise<void>;
  /**
   * Closes the pool (then the embedded database). Connections still in use after SHUTDOWN_TIMEOUT are ended,
   * logged at error level (each is a connection something never released) and answered.
   */
  close(): Promise<ConnectionInUse[]>;
}

/** Opens the configured database: DB_URL, or the embedded one in DATA_DIR when it is unset. */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  const { url, embedded } = await configuredDatabaseUrl(config, logger);
  let orm: Orm;
  try {
    orm = await createOrm(url, config.database.poolMax, logger, {
      preparedStatements: config.database.preparedStatements,
      // The embedded server is in this process and serialises sessions: a wait there is a long transaction, not an outage.
      connectTimeoutMs: embedded ? undefined : config.database.connectTimeoutMs,
      statementTimeoutMs: config.database.statementTimeoutMs,
      cancelOnAbort: embedded === null,
    });
  } catch (error) {
    await embedded?.close();
    throw error;
  }
  return {
    orm,
    embedded: embedded !== null,
    setControl: (control) => embedded?.setControl(control),
    kysely: () => orm.em.getKysely(),
    async ping() {
      await orm.em.getConnection().execute('select 1');
    },
    async close() {
      const inUse = await closeOrmWithin(orm, config.server.shutdownTimeoutMs);
      if (inUse.length > 0) logger.error({ connections: inUse }, `closing the database: ${inUse.length} connection(s) still in use after ${config.server.shutdownTimeoutMs} ms were ended`);
      await embedded?.close();
      return inUse;
    },
  };
}
