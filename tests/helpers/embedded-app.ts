import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { createApp, type TesseraApp } from '../../server/app.ts';
import { createAppContext, type AppContext } from '../../server/app-context.ts';
import { systemAccountability } from '../../server/auth/accountability.ts';
import { loadConfig } from '../../server/config/index.ts';
import { openDatabase, type Database } from '../../server/database/database.ts';
import { migrateLatest } from '../../server/database/migrations.ts';
import { createLogger } from '../../server/logger.ts';
import { bootstrapDatabase } from '../../server/services/bootstrap.ts';
import { TEST_ADMIN, TEST_ENV } from './test-app.ts';

/** A bootstrapped Tessera on the embedded database (PGlite) in its own temporary DATA_DIR, signed in as the administrator. */
export interface EmbeddedApp {
  database: Database;
  context: AppContext;
  request: ReturnType<typeof supertest>;
  /** The administrator's Authorization header. */
  auth: Record<string, string>;
  /** Disposes the context, closes the database and removes the DATA_DIR. */
  close(): Promise<void>;
}

/** Starts an embedded-database app; `prefix` names its temporary DATA_DIR, `env` adds configuration variables. */
export async function createEmbeddedApp(prefix: string, env: Record<string, string> = {}): Promise<EmbeddedApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  let database: Database | undefined;
  let context: AppContext | undefined;
  let app: TesseraApp | undefined;
  const close = async () => {
    app?.close();
    await context?.dispose();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const config = loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, ...env });
    const logger = createLogger(config.log);
    database = await openDatabase(config, logger);
    await migrateLatest(database.orm);
    context = createAppContext(config as typeof config & { secret: string }, logger, database);
    await bootstrapDatabase(context.servicesContext(systemAccountability()));
    app = createApp(context);
    const request = supertest(app.callback());
    const login = await request.post('/auth/login').send(TEST_ADMIN).expect(200);
    return { database, context, request, auth: { Authorization: `Bearer ${login.body.data.access_token}` }, close };
  } catch (error) {
    await close();
    throw error;
  }
}
