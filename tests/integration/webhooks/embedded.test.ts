import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { createAppContext, type AppContext } from '../../../server/app-context.ts';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { openDatabase, type Database } from '../../../server/database/database.ts';
import { migrateLatest } from '../../../server/database/migrations.ts';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { createLogger } from '../../../server/logger.ts';
import { bootstrapDatabase } from '../../../server/services/bootstrap.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-jobs-'));
let database: Database;
let context: AppContext;
let worker: JobWorker;
let receiver: Receiver;

beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DB_POOL_MAX: '4',
    SECRET: 'test-secret-that-is-long-enough-0123456789',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'admin-password-1',
    LOG_LEVEL: 'silent',
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  });
  const logger = createLogger(config.log);
  database = await openDatabase(config, logger);
  await migrateLatest(database.orm);
  context = createAppContext(config as typeof config & { secret: string }, logger, database);
  await bootstrapDatabase(context.servicesContext(systemAccountability()));
  receiver = await startReceiver();
  worker = await startWorker(context, { pollIntervalMs: 100 });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await context?.dispose();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('enqueues in the write and delivers on the embedded PGlite database (through its socket server)', async () => {
  expect(database.embedded).toBe(true);
  const request = supertest(createApp(context).callback());
  const login = await request.post('/auth/login').send({ email: 'admin@example.com', password: 'admin-password-1' }).expect(200);
  const auth = { Authorization: `Bearer ${login.body.data.access_token}` };
  await request.post('/collections').set(auth).send({ collection: 'pages', fields: [{ field: 'title', type: 'string' }] }).expect(200);
  await request.post('/webhooks').set(auth).send({ name: 'pages', url: `${receiver.url}/embedded`, actions: ['create', 'update'], collections: ['pages'] }).expect(200);
  const created = await request.post('/items/pages').set(auth).send({ title: 'Home' }).expect(200);
  await request.patch(`/items/pages/${created.body.data.id}`).set(auth).send({ title: 'Start' }).expect(200);
  const calls = await receiver.waitFor(2, '/embedded', 30_000);
  expect(calls.map((call) => call.body.event).sort()).toEqual(['items.create', 'items.update']);
}, 60_000);
