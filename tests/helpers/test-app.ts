import supertest from 'supertest';
import { createApp, type TesseraApp } from '../../server/app.ts';
import { createAppContext, type AppContext } from '../../server/app-context.ts';
import { systemAccountability } from '../../server/auth/accountability.ts';
import { loadConfig } from '../../server/config/index.ts';
import { openDatabase } from '../../server/database/database.ts';
import { createLogger } from '../../server/logger.ts';
import { bootstrapDatabase } from '../../server/services/bootstrap.ts';
import type { ServiceContext } from '../../server/services/service-context.ts';
import { closeInSteps } from './close-report.ts';
import { createMigratedDatabase, type TestDatabase } from './test-database.ts';

/** Credentials of the administrator every test app starts with. */
export const TEST_ADMIN = { email: 'admin@example.com', password: 'admin-password-1' } as const;

/** The configuration every test app starts from, its database aside (DB_URL, or DATA_DIR for the embedded one). */
export const TEST_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'test',
  DB_POOL_MAX: '4',
  SECRET: 'test-secret-that-is-long-enough-0123456789',
  ADMIN_EMAIL: TEST_ADMIN.email,
  ADMIN_PASSWORD: TEST_ADMIN.password,
  LOG_LEVEL: 'silent',
  // Password hashes at a test cost: argon2 with 1 MiB, 2 passes and 1 lane verifies in 1.7 ms, against 159 ms at
  // the default 64 MiB, 3 passes, 4 lanes (measured). Every test app hashes its administrator and most sign in:
  // the API files ran 583 s -> 441 s (docs/testing.md). Tests of the cost itself set theirs (auth/hash-cost.test.ts).
  HASH_MEMORY_COST: '1024',
  HASH_TIME_COST: '2',
  HASH_PARALLELISM: '1',
};

/** A bootstrapped Tessera on its own database, driven in-process through `request`. */
export interface TestApp {
  context: AppContext;
  app: TesseraApp;
  request: ReturnType<typeof supertest>;
  /** Services running as the platform itself. */
  system: ServiceContext;
  testDatabase: TestDatabase;
  /** Signs in and returns an access token. */
  login(email?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts a test app; `env` overrides or adds configuration variables; `cwd` is the project folder (default: this one). */
export async function createTestApp(env: Record<string, string> = {}, options: { cwd?: string } = {}): Promise<TestApp> {
  const testDatabase = await createMigratedDatabase();
  const config = loadConfig({ ...TEST_ENV, DB_URL: testDatabase.url, ...env }, options.cwd);
  const logger = createLogger(config.log);
  const database = await openDatabase(config, logger);
  const context = createAppContext(config as typeof config & { secret: string }, logger, database);
  await context.ready;
  const system = context.servicesContext(systemAccountability());
  await bootstrapDatabase(system);
  const app = createApp(context);
  const request = supertest(app.callback());
  return {
    context,
    app,
    request,
    system,
    testDatabase,
    async login(email = TEST_ADMIN.email, password = TEST_ADMIN.password) {
      const response = await request.post('/auth/login').send({ email, password }).expect(200);
      return response.body.data.access_token as string;
    },
    async close() {
      await closeInSteps('test app', [
        ['app', () => app.close()],
        ['context', () => context.dispose()],
        ['database', () => database.close()],
        ['drop database', () => testDatabase.drop()],
      ]);
    },
  };
}


/** Another instance of `t`'s project: its own app, context and pool on the same database (closed by its own close()). */
export async function createSecondInstance(t: TestApp, env: Record<string, string> = {}): Promise<Pick<TestApp, 'context' | 'app' | 'request' | 'close'>> {
  const config = loadConfig({ ...TEST_ENV, DB_URL: t.testDatabase.url, ...env });
  const logger = createLogger(config.log);
  const database = await openDatabase(config, logger);
  const context = createAppContext(config as typeof config & { secret: string }, logger, database);
  await context.ready;
  const app = createApp(context);
  return {
    context,
    app,
    request: supertest(app.callback()),
    async close() {
      await closeInSteps('second instance', [
        ['app', () => app.close()],
        ['context', () => context.dispose()],
        ['database', () => database.close()],
      ]);
    },
  };
}
