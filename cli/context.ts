import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../server/app-context.ts';
import { systemAccountability } from '../server/auth/accountability.ts';
import { withConfig, type Config } from '../server/config/index.ts';
import { openDatabase } from '../server/database/database.ts';
import { connectionError, describeAddress, type DatabaseTarget } from '../server/database/connection-error.ts';
import { CLI_CONNECTIONS, embeddedUrl, readLiveLock, type EmbeddedLock } from '../server/database/embedded-lock.ts';
import { createLogger } from '../server/logger.ts';
import type { ServiceContext } from '../server/services/service-context.ts';
import { assertSystemSchema } from './schema-check.ts';

/** An open process context for a CLI command: the shared app context plus a system-level service context. */
export interface SystemContext {
  app: AppContext;
  /** Services built from this run as the platform itself (full access, no user). */
  system: ServiceContext;
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

/** Opens the database for a command; logs go to stderr so stdout stays clean for data (`--json`). */
export async function openSystemContext(config: Config, options: OpenOptions = {}): Promise<SystemContext> {
  const attached = options.attach === false ? { config, server: null } : attachToRunningServer(config);
  const resolved = resolveSecret(attached.config);
  const target = databaseTarget(resolved, attached.server);
  // A failure to reach the database names it and the setting it came from, never the URL's password.
  const named = (error: unknown) => (target && connectionError(error, target)) || error;
  const logger = createLogger(resolved.log, options.logTo ?? process.stderr);
  const database = await openDatabase(resolved, logger).catch((error: unknown) => {
    throw named(error);
  });
  try {
    // Commands that migrate create a missing DB_URL database. MikroORM would do it on the migrator's first
    // use by reconnecting, which destroys the Kysely instance services captured: do it before they exist.
    if (options.requireSchema === false) {
      if (!database.embedded) await database.orm.schema.ensureDatabase();
    } else {
      await assertSystemSchema(database, target ? `PostgreSQL at ${describeAddress(target.url)} (${target.source})` : undefined);
    }
  } catch (error) {
    await closeQuietly(database.close());
    throw named(error);
  }
  const app = createAppContext(resolved, logger, database);
  try {
    await app.ready;
  } catch (error) {
    await closeQuietly(app.dispose());
    await closeQuietly(database.close());
    throw error;
  }
  return {
    app,
    system: app.servicesContext(systemAccountability()),
    attachedTo: attached.server,
    close: async () => {
      await closeQuietly(app.dispose());
      await closeQuietly(database.close());
    },
  };
}
