import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import supertest from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { createAppContext, type AppContext } from '../../../server/app-context.ts';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { openDatabase, type Database } from '../../../server/database/database.ts';
import { migrateLatest } from '../../../server/database/migrations.ts';
import { createLogger } from '../../../server/logger.ts';
import { bootstrapDatabase } from '../../../server/services/bootstrap.ts';

/** The embedded database (PGlite): pg_trgm is registered, CREATE INDEX CONCURRENTLY works there too. */
const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-trgm-'));
let database: Database;
let context: AppContext;
let request: ReturnType<typeof supertest>;
let auth: Record<string, string>;

beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DB_POOL_MAX: '4',
    SECRET: 'test-secret-that-is-long-enough-0123456789',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'admin-password-1',
    LOG_LEVEL: 'silent',
    INDEX_ADVICE_THRESHOLD: '0',
  });
  const logger = createLogger(config.log);
  database = await openDatabase(config, logger);
  await migrateLatest(database.orm);
  context = createAppContext(config as typeof config & { secret: string }, logger, database);
  await bootstrapDatabase(context.servicesContext(systemAccountability()));
  request = supertest(createApp(context).callback());
  const login = await request.post('/auth/login').send({ email: 'admin@example.com', password: 'admin-password-1' }).expect(200);
  auth = { Authorization: `Bearer ${login.body.data.access_token}` };
}, 120_000);

afterAll(async () => {
  await context?.dispose();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('advises and builds a trigram index for ?search= and a btree for a sort on the embedded database', async () => {
  await request.post('/collections').set(auth).send({ collection: 'notes', fields: [{ field: 'title', type: 'string', schema: { is_indexed: true } }, { field: 'rank', type: 'integer' }] }).expect(200);
  const db = database.kysely();
  await sql`insert into notes (title, rank) select md5(i::text), i from generate_series(1, 20000) i`.execute(db);
  await request.get('/items/notes').query({ search: 'abc' }).set(auth).expect(200);
  await request.get('/items/notes').query({ sort: '-rank' }).set(auth).expect(200);
  const advice = (await request.get('/utils/index-advice').set(auth).expect(200)).body.data as Array<{ index: { name: string; kind: string; columns: string[] } }>;
  expect(advice.map((item) => item.index.name).sort()).toEqual(['notes_rank_index', 'notes_title_trgm_index']);
  for (const item of advice) await request.post('/utils/index-advice/apply').set(auth).send({ collection: 'notes', columns: item.index.columns, kind: item.index.kind }).expect(200);
  await sql`analyze notes`.execute(db);
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from notes where title ilike ${'%abc%'}`.execute(db);
  expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan on notes_title_trgm_index/);
  expect((await request.get('/fields/notes/title').set(auth).expect(200)).body.data.schema.is_indexed).toBe(true);
  expect((await request.get('/fields/notes/rank').set(auth).expect(200)).body.data.schema.is_indexed).toBe(true);
}, 120_000);
