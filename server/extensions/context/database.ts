import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Knex } from 'knex';
import type { AppContext } from '../../app-context.ts';
import { embeddedUrl, readLiveLock } from '../../database/embedded-lock.ts';
import type { WriteTransaction } from '../../events/event-names.ts';

/** The `database` of an extension's context: a knex instance, made on first use, and write-transaction handles. */
export interface ExtensionDatabase {
  /** The app's database as knex (client `pg`, its own pool of at most 2 connections), created on first call. */
  knex(): Knex;
  /**
   * A knex object standing for a Tessera write transaction: services given it as `knex` run inside that
   * transaction (and roll back with it). Raw queries on it run on the knex pool, outside the write.
   */
  transactionHandle(transaction: WriteTransaction | OpenWriteTransaction): Knex;
  /** Ends the knex pool (a later knex() opens a new one). */
  close(): Promise<void>;
}

/** The application_name of the extension pool's connections (visible in pg_stat_activity). */
export const EXTENSION_POOL_NAME = 'tessera-extensions';

/**
 * knex, loaded on the first knex() call: a start (and an app with no extension that asks for the database)
 * never loads it. knex is CommonJS, so it loads synchronously, as knex() must answer at once.
 */
function loadKnex(): (config: Knex.Config) => Knex {
  return createRequire(import.meta.url)('knex') as (config: Knex.Config) => Knex;
}

/** How to reach a write's transaction when it may not have begun yet (FilterMeta.openTransaction). */
export type OpenWriteTransaction = () => Promise<WriteTransaction>;

/** Handles made by transactionHandle, to how to reach the write transactions they stand for. */
const handles = new WeakMap<object, OpenWriteTransaction>();

/**
 * How to reach the Tessera write transaction a knex object passed to a service stands for (begun on the
 * first call when the write deferred it); undefined for any other value.
 */
export function writeTransactionOf(knex: unknown): OpenWriteTransaction | undefined {
  return (typeof knex === 'function' || (typeof knex === 'object' && knex !== null)) ? handles.get(knex) : undefined;
}

/** One extension database per app context, so every extension shares its pool. */
const databases = new WeakMap<AppContext, ExtensionDatabase>();

/** The extension database of `app` (the same object on every call for one app). */
export function extensionDatabase(app: AppContext): ExtensionDatabase {
  const existing = databases.get(app);
  if (existing) return existing;
  let instance: Knex | null = null;
  const database: ExtensionDatabase = {
    knex() {
      instance ??= loadKnex()({
        client: 'pg',
        connection: { connectionString: databaseUrl(app), application_name: EXTENSION_POOL_NAME },
        pool: { min: 0, max: 2 },
      });
      return instance;
    },
    transactionHandle(transaction) {
      // A distinct object sharing the pool: only its identity matters to the services.
      const handle = database.knex().withUserParams({ tesseraWriteTransaction: true });
      handles.set(handle, typeof transaction === 'function' ? transaction : async () => transaction);
      return handle;
    },
    async close() {
      const closing = instance;
      instance = null;
      await closing?.destroy();
    },
  };
  databases.set(app, database);
  return database;
}

/**
 * The URL of the app's database: DB_URL, or the embedded server's local port. The embedded server is
 * announced in DATA_DIR's lock file (by this process when it serves it, else by the process that does).
 */
function databaseUrl(app: AppContext): string {
  if (app.config.database.url) return app.config.database.url;
  const url = ownEmbeddedUrl(app.config.dataDir) ?? otherEmbeddedUrl(app.config.dataDir);
  if (!url) throw new Error('The embedded database is not listening yet: extensions can use knex once the server has started.');
  return url;
}

/** The embedded server's URL when another live process serves it (a CLI command beside a running server). */
function otherEmbeddedUrl(dataDir: string): string | null {
  const port = readLiveLock(dataDir)?.port;
  return port ? embeddedUrl(port) : null;
}

/** The embedded server's URL when this process serves it (embedded-lock's tessera.lock names this pid). */
function ownEmbeddedUrl(dataDir: string): string | null {
  try {
    const lock = JSON.parse(readFileSync(path.join(dataDir, 'tessera.lock'), 'utf8')) as { pid?: unknown; port?: unknown };
    return lock.pid === process.pid && Number.isInteger(lock.port) ? `postgres://postgres@127.0.0.1:${lock.port as number}/postgres` : null;
  } catch {
    return null;
  }
}
