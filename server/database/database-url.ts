import type { Logger } from 'pino';
import type { Config } from '../config/index.ts';
import type { EmbeddedPostgres } from './embedded-postgres.ts';

/**
 * The URL of the configured database: DB_URL, or, when it is unset, the embedded server this function starts
 * from DATA_DIR (returned as `embedded`, which the caller closes; null with DB_URL).
 */
export async function configuredDatabaseUrl(config: Config, logger: Logger): Promise<{ url: string; embedded: EmbeddedPostgres | null }> {
  if (config.database.url) return { url: config.database.url, embedded: null };
  // Imported on demand: server deployments never load the WebAssembly build of PostgreSQL.
  const { startEmbeddedPostgres } = await import('./embedded-postgres.ts');
  const embedded = await startEmbeddedPostgres(config.dataDir, config.database.poolMax);
  logger.debug({ dataDir: config.dataDir }, 'embedded database started');
  return { url: embedded.url, embedded };
}
