import { parentPort, workerData } from 'node:worker_threads';
import { createAppContext } from '../../../server/app-context.ts';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { openDatabase } from '../../../server/database/database.ts';
import { exportItems } from '../../../server/files/import/export-items.ts';
import { createLogger } from '../../../server/logger.ts';

/**
 * Runs one /utils/export (the service behind the route) in a worker thread, whose heap the test caps
 * (resourceLimits): `workerData` holds the environment and the export's collection and body; the new
 * file's id is posted back. Not a test file: export-large.test.ts starts it.
 */
const { env, collection, body } = workerData as { env: Record<string, string>; collection: string; body: unknown };
const config = loadConfig(env);
const logger = createLogger(config.log);
const database = await openDatabase(config, logger);
const app = createAppContext(config as typeof config & { secret: string }, logger, database);
try {
  await app.ready;
  const id = await exportItems(app, systemAccountability(), collection, body);
  parentPort!.postMessage({ id });
} finally {
  await app.dispose();
  await database.close();
}
