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

/** The embedded database (PGlite) has no PostGIS: geometry stays GeoJSON, GeometryCollection included. */
const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-geometry-'));
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

it('stores geometry as GeoJSON in the domains on the embedded database, GeometryCollection and its bounding box included', async () => {
  await request.post('/collections').set(auth).send({ collection: 'shapes', fields: [{ field: 'name', type: 'string' }, { field: 'shape', type: 'geometry' }] }).expect(200);
  const { rows } = await sql<{ domain: string | null }>`select domain_name as domain from information_schema.columns where table_name = 'shapes' and column_name = 'shape'`.execute(database.kysely());
  expect(rows).toEqual([{ domain: 'tessera_geometry' }]);
  const collection = { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [40, 40] }, { type: 'LineString', coordinates: [[50, 50], [60, 60]] }] };
  await request.post('/items/shapes').set(auth).send([{ name: 'g', shape: collection }, { name: 'p', shape: { type: 'Point', coordinates: [1, 1] } }]).expect(200);
  const names = async (filter: object) => (await request.get('/items/shapes').query({ fields: 'name', sort: 'name', filter: JSON.stringify(filter) }).set(auth).expect(200)).body.data.map((row: { name: string }) => row.name);
  expect(await names({ shape: { _intersects_bbox: { type: 'Point', coordinates: [55, 45] } } })).toEqual(['g']);
  expect(await names({ shape: { _nintersects_bbox: { type: 'Point', coordinates: [55, 45] } } })).toEqual(['p']);
  expect((await request.get('/items/shapes').query({ filter: JSON.stringify({ name: { _eq: 'g' } }) }).set(auth).expect(200)).body.data[0].shape).toEqual(collection);
  const refused = await request.get('/items/shapes').query({ filter: JSON.stringify({ shape: { _intersects: collection } }) }).set(auth).expect(400);
  expect(refused.body.errors[0]).toMatchObject({ extensions: { field: 'shape' }, message: expect.stringMatching(/needs PostGIS/) });
});
