import { tellSchemaChanged } from '../server/database/embedded-control.ts';
import type { SystemContext } from './context.ts';

/** What became of a schema change for the servers already running on the database. */
export interface RunningServerNotice {
  /** true: a running server confirmed it serves the change; false: one is running and did not; null: none known, or not confirmable. */
  reloaded: boolean | null;
  /** One plain sentence for the person; null when there is nothing to say (no server runs on this database). */
  message: string | null;
}

/**
 * Tells the servers running on this command's database that the schema changed, after the change is
 * committed: an embedded server attached through its lock file reloads its schema before answering, so
 * its next request serves the change; servers on DB_URL hear it through Redis (REDIS_URL) or keep their
 * cached schema until restarted.
 */
export async function announceSchemaChange(context: SystemContext): Promise<RunningServerNotice> {
  const server = context.attachedTo;
  if (server) {
    const notice = await tellSchemaChanged(server);
    return notice.reloaded
      ? { reloaded: true, message: `The running server (process ${server.pid}) picked up the change: it serves it from its next request.` }
      : { reloaded: false, message: `The running server (process ${server.pid}) did not pick up the change (${notice.reason}): restart it to serve the change.` };
  }
  const { config } = context.app;
  if (!config.database.url) return { reloaded: null, message: null };
  if (config.redis.url) return { reloaded: null, message: 'Servers running on this database were told through REDIS_URL: each reloads its schema on its next request.' };
  return { reloaded: null, message: 'Servers already running on this database (if any) keep serving their cached schema until restarted: set REDIS_URL on them and on this command to have them told at once.' };
}
