import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { withConfig, type Config } from '../server/config/index.ts';
import type { Database } from '../server/database/database.ts';
import { connectionError, describeAddress, type DatabaseTarget } from '../server/database/connection-error.ts';
import { openPlainDatabase } from '../server/database/plain-connection.ts';
import { CLI_CONNECTIONS, embeddedUrl, readLiveLock, type EmbeddedLock } from '../server/database/embedded-lock.ts';
import { createLogger, type Logger } from '../server/logger.ts';
import { assertSystemSchema } from './schema-check.ts';

/**
 * An open database for a CLI command, without the app context (cli/context.ts adds it): what `diff` and
 * `snapshot`, which only read, need. It loads no service, cache, mail or Redis module (issue 36).
 */
export interface CommandDatabase {
  /** Settings with SECRET resolved (and DB_URL pointed at a running embedded server when attached). */
  config: Config & { secret: string };
  logger: Logger;
  database: Database;
  /** The embedded server whose database this command uses through DATA_DIR/tessera.lock, or null. */
  attachedTo: EmbeddedLock | null;
  close(): Promise<void>;
}

/**
 * Returns `config` with SECRET set. Outside production a missing SECRET is generated once and kept in
 * DATA_DIR/.secret, so tokens survive restarts of a project that never ran `tessera init`.
 */
export function resolveSecret(config: Config): Config & { secret: string } {
  if (config.secret) return config as Config & { secret: string };
  const file = path.join(config.dataDir, '.secret');
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
    secret = randomBytes(48).toString('base64url');
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  }
  return withConfig(config, { secret }) as Config & { secret: string };
}

/** Options of openSystemContext. */
export interface OpenOptions {
  /** Where logs go (default stderr). */
  logTo?: NodeJS.WritableStream;
  /** Check the system schema is migrated before the command runs (default true; off for init, start, migrate). */
  requireSchema?: boolean;
  /** Connect to the embedded database a running server serves from DATA_DIR (default true; off for start). */
  attach?: boolean;
}

/**
 * With DB_URL unset and a server already serving DATA_DIR's embedded database, `config` pointed at that
 * server's local port (from DATA_DIR/tessera.lock), so commands run beside it instead of failing on the
 * lock; `server` is that server's lock (null when the command opens the database itself).
 */
export function attachToRunningServer(config: Config): { config: Config; server: EmbeddedLock | null } {
  if (config.database.url) return { config, server: null };
  const server = readLiveLock(config.dataDir);
  if (!server?.port) return { config, server: null };
  return { config: withConfig(config, { database: { ...config.database, url: embeddedUrl(server.port), poolMax: CLI_CONNECTIONS } }), server };
}

/** The database a command connects to, named as the person configured it (null: this process opens the embedded one). */
function databaseTarget(config: Config, server: EmbeddedLock | null): DatabaseTarget | null {
  if (!config.database.url) return null;
  const source = server ? `the embedded database of the server running as process ${server.pid}, from ${path.join(config.dataDir, 'tessera.lock')}` : 'DB_URL';
  return { url: config.database.url, source };
}

/** How long closing may take before the command gives up waiting and exits anyway. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Awaits a close for at most CLOSE_TIMEOUT_MS and never throws: a command must end even when closing the
 * pool stalls (seen when a failed Promise.all of reads leaves connections still connecting: pg's Pool.end()
 * then waits on them); main exits the process right after.
 */
export async function closeQuietly(closing: Promise<unknown>, timeoutMs = CLOSE_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([closing.catch(() => undefined), timeout]);
  clearTimeout(timer);
}

/** Settings, logger and database-naming of one command, before the database is opened. */
interface Prepared {
  config: Config & { secret: string };
  logger: Logger;
  attachedTo: EmbeddedLock | null;
  /** The database as messages name it ("PostgreSQL at db:5432 (DB_URL)"), or undefined for the embedded one. */
  where: string | undefined;
  /** `error` naming the database it came from (never the URL's password). */
  named(error: unknown): unknown;
}

function prepare(config: Config, options: OpenOptions): Prepared {
  const attached = options.attach === false ? { config, server: null } : attachToRunningServer(config);
  const resolved = resolveSecret(attached.config);
  const target = databaseTarget(resolved, attached.server);
  return {
    config: resolved,
    logger: createLogger(resolved.log, options.logTo ?? process.stderr),
    attachedTo: attached.server,
    where: target ? `PostgreSQL at ${describeAddress(target.url)} (${target.source})` : undefined,
    named: (error) => (target && connectionError(error, target)) || error,
  };
}

/**
 * Opens the database for a command and checks its system schema; logs go to stderr so stdout stays clean
 * for data (`--json`). A failure to reach the database names it and the setting it came from.
 */
export async function openCommandDatabase(config: Config, options: OpenOptions = {}): Promise<CommandDatabase> {
  const prepared = prepare(config, options);
  // Imported here: the reading commands (openReadingDatabase) never load MikroORM.
  const { openDatabase } = await import('../server/database/database.ts');
  const database = await openDatabase(prepared.config, prepared.logger).catch((error: unknown) => {
    throw prepared.named(error);
  });
  try {
    // Commands that migrate create a missing DB_URL database. MikroORM would do it on the migrator's first
    // use by reconnecting, which destroys the Kysely instance services captured: do it before they exist.
    if (options.requireSchema === false) {
      if (!database.embedded) await database.orm.schema.ensureDatabase();
    } else {
      await assertSystemSchema(database.kysely(), prepared.where);
    }
  } catch (error) {
    await closeQuietly(database.close());
    throw prepared.named(error);
  }
  return { config: prepared.config, logger: prepared.logger, database, attachedTo: prepared.attachedTo, close: () => closeQuietly(database.close()) };
}

/** An open database for a command that only reads (`diff`, `snapshot`): Kysely without MikroORM. */
export interface ReadingDatabase {
  config: Config & { secret: string };
  db: Kysely<any>;
  close(): Promise<void>;
}

/**
 * Opens the database as openCommandDatabase does (attach, SECRET, named connection errors, system-schema
 * check) through a plain pg pool (server/database/plain-connection.ts): MikroORM is never loaded (issue 36).
 */
export async function openReadingDatabase(config: Config): Promise<ReadingDatabase> {
  const prepared = prepare(config, {});
  const database = await openPlainDatabase(prepared.config, prepared.logger).catch((error: unknown) => {
    throw prepared.named(error);
  });
  try {
    await assertSystemSchema(database.kysely, prepared.where);
  } catch (error) {
    await closeQuietly(database.close());
    throw prepared.named(error);
  }
  return { config: prepared.config, db: database.kysely, close: () => closeQuietly(database.close()) };
}
