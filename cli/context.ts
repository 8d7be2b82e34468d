import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../server/app-context.ts';
import { systemAccountability } from '../server/auth/accountability.ts';
import { withConfig, type Config } from '../server/config/index.ts';
import { openDatabase } from '../server/database/database.ts';
import { createLogger } from '../server/logger.ts';
import type { ServiceContext } from '../server/services/service-context.ts';

/** An open process context for a CLI command: the shared app context plus a system-level service context. */
export interface SystemContext {
  app: AppContext;
  /** Services built from this run as the platform itself (full access, no user). */
  system: ServiceContext;
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

/** Opens the database for a command; logs go to stderr so stdout stays clean for data (`--json`). */
export async function openSystemContext(config: Config, options: { logTo?: NodeJS.WritableStream } = {}): Promise<SystemContext> {
  const resolved = resolveSecret(config);
  const logger = createLogger(resolved.log, options.logTo ?? process.stderr);
  const database = await openDatabase(resolved, logger);
  const app = createAppContext(resolved, logger, database);
  try {
    await app.ready;
  } catch (error) {
    await app.dispose();
    await database.close();
    throw error;
  }
  return {
    app,
    system: app.servicesContext(systemAccountability()),
    close: async () => {
      await app.dispose();
      await database.close();
    },
  };
}
