import { createAppContext, type AppContext } from '../server/app-context.ts';
import { systemAccountability } from '../server/auth/accountability.ts';
import type { Config } from '../server/config/index.ts';
import type { EmbeddedLock } from '../server/database/embedded-lock.ts';
import type { ServiceContext } from '../server/services/service-context.ts';
import { closeQuietly, openCommandDatabase, type OpenOptions } from './database-context.ts';

/** An open process context for a CLI command: the shared app context plus a system-level service context. */
export interface SystemContext {
  app: AppContext;
  /** Services built from this run as the platform itself (full access, no user). */
  system: ServiceContext;
  /** The embedded server whose database this command uses through DATA_DIR/tessera.lock, or null. */
  attachedTo: EmbeddedLock | null;
  close(): Promise<void>;
}

/** Opens the database for a command (database-context.ts) and the app context over it. */
export async function openSystemContext(config: Config, options: OpenOptions = {}): Promise<SystemContext> {
  const opened = await openCommandDatabase(config, options);
  const app = createAppContext(opened.config, opened.logger, opened.database);
  try {
    await app.ready;
  } catch (error) {
    await closeQuietly(app.dispose());
    await opened.close();
    throw error;
  }
  return {
    app,
    system: app.servicesContext(systemAccountability()),
    attachedTo: opened.attachedTo,
    close: async () => {
      await closeQuietly(app.dispose());
      await opened.close();
    },
  };
}
