import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { createAppContext, type AppContext } from '../../../server/app-context.ts';
import { systemAccountability } from '../../../server/auth/accountability.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { openDatabase, type Database } from '../../../server/database/database.ts';
import { migrateLatest } from '../../../server/database/migrations.ts';
import { createLogger } from '../../../server/logger.ts';
import { bootstrapDatabase } from '../../../server/services/bootstrap.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startOwnPostgres, startOwnRedis, type OwnPostgres, type OwnRedis } from '../../helpers/own-servers.ts';

const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One Tessera process (in this one), served over real HTTP. */
interface Instance {
  url: string;
  context: AppContext;
  close(): Promise<void>;
}

async function startInstance(dbUrl: string, redisUrl: string, setup = false): Promise<Instance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DB_URL: dbUrl,
    DB_POOL_MAX: '5',
    REDIS_URL: redisUrl,
    SECRET: 'fault-test-secret-that-is-long-enough-0123',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
  }) as ReturnType<typeof loadConfig> & { secret: string };
  const logger = createLogger(config.log);
  const database: Database = await openDatabase(config, logger);
  if (setup) await migrateLatest(database.orm);
  const context = createAppContext(config, logger, database);
  await context.ready;
  if (setup) await bootstrapDatabase(context.servicesContext(systemAccountability()));
  const server = createServer(createApp(context).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    context,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await context.dispose();
      await database.close();
    },
  };
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

async function login(base: string): Promise<string> {
  const response = await call(base, 'POST', '/auth/login', undefined, ADMIN);
  expect(response.status).toBe(200);
  return response.body.data.access_token;
}

describe('faults: PostgreSQL restart under write load, Redis stop and start', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let first: Instance;
  let token: string;

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
    first = await startInstance(postgres.url, redis.url, true);
    token = await login(first.url);
    const created = await call(first.url, 'POST', '/collections', token, { collection: 'notes', fields: [{ field: 'title', type: 'string' }] });
    expect(created.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await first?.close();
    await redis?.stop();
    postgres?.destroy();
  });

  it('answers 200 or 503 (never 500) while PostgreSQL restarts, and loses no acknowledged write', async () => {
    const acknowledged = new Set<string>();
    const statuses = new Map<number, number>();
    let unavailable: { retryAfter: string | null; code: string } | null = null;
    let stop = false;
    const writer = async (id: number) => {
      for (let n = 0; !stop; n++) {
        const title = `writer ${id} note ${n}`;
        const response = await call(first.url, 'POST', '/items/notes', token, { title }).catch((error: unknown) => ({ status: -1, body: String(error), headers: new Headers() }));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 200) acknowledged.add(title);
        if (response.status === 503) {
          unavailable = { retryAfter: response.headers.get('retry-after'), code: response.body.errors[0].extensions.code };
          await sleep(50);
        }
      }
    };
    const writers = Array.from({ length: 4 }, (_, id) => writer(id));
    await sleep(500);
    postgres.stop();
    const health = await call(first.url, 'GET', '/server/health');
    const ready = await call(first.url, 'GET', '/server/ready');
    const duringOutage = await Promise.all([call(first.url, 'POST', '/auth/login', undefined, ADMIN), call(first.url, 'GET', '/items/notes', token), call(first.url, 'GET', '/users/me', token)]);
    await sleep(1_500);
    postgres.start();
    // Writes succeed again once the server is back.
    const before = acknowledged.size;
    await eventually(async () => expect(acknowledged.size).toBeGreaterThan(before + 20), 10_000, 100);
    stop = true;
    await Promise.all(writers);

    console.log('statuses during the PostgreSQL restart', Object.fromEntries(statuses));
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(statuses.get(503)).toBeGreaterThan(0);
    expect(unavailable).toEqual({ retryAfter: '5', code: 'SERVICE_UNAVAILABLE' });
    expect(duringOutage.map((response) => [response.status, response.body.errors?.[0]?.extensions?.code])).toEqual(Array(3).fill([503, 'SERVICE_UNAVAILABLE']));
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'error' });
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'error', checks: { database: { status: 'error' }, redis: { status: 'ok' } } });

    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ title: string }>('select title from notes');
      const stored = new Set(rows.map((row) => row.title));
      expect([...acknowledged].filter((title) => !stored.has(title))).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('signs in without waiting and starts without Redis, and a schema change made during the outage reaches the other instance after reconnect', async () => {
    // Two sign-ins with Redis up: the baseline (argon2 dominates it).
    const baselineStarted = Date.now();
    await login(first.url);
    expect((await call(first.url, 'POST', '/auth/login', undefined, { ...ADMIN, password: 'wrong-password-1' })).status).toBe(401);
    const baselineMs = Date.now() - baselineStarted;

    await redis.stop();
    await sleep(300);

    const health = await call(first.url, 'GET', '/server/health', token);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'warn', checks: { database: { status: 'ok' }, redis: { status: 'warn' } } });

    const signInStarted = Date.now();
    await login(first.url);
    const wrong = await call(first.url, 'POST', '/auth/login', undefined, { ...ADMIN, password: 'wrong-password-1' });
    const signInMs = Date.now() - signInStarted;
    expect(wrong.status).toBe(401);

    const startStarted = Date.now();
    const second = await startInstance(postgres.url, redis.url);
    const startMs = Date.now() - startStarted;
    try {
      expect((await call(second.url, 'GET', '/items/late', token)).status).toBe(403);
      const created = await call(first.url, 'POST', '/collections', token, { collection: 'late', fields: [{ field: 'title', type: 'string' }] });
      expect(created.status).toBe(200);
      expect((await call(first.url, 'POST', '/items/late', token, { title: 'made during the outage' })).status).toBe(200);
      // Not heard yet: the second instance still has its schema from before the change.
      expect((await call(second.url, 'GET', '/items/late', token)).status).toBe(403);

      await redis.start();
      const restarted = Date.now();
      const seen = await eventually(async () => {
        const response = await call(second.url, 'GET', '/items/late?fields=title', token);
        expect(response.status).toBe(200);
        return response.body.data;
      }, 8_000, 100);
      expect(seen).toEqual([{ title: 'made during the outage' }]);
      console.log(`redis outage: two sign-ins ${signInMs} ms (${baselineMs} ms with redis up), second instance started in ${startMs} ms, change seen ${Date.now() - restarted} ms after redis restarted`);
      // Loose on a shared machine; waiting on Redis took 9–15 s here before.
      expect(signInMs).toBeLessThan(baselineMs * 2 + 1_000);
      expect(startMs).toBeLessThan(5_000);
      await eventually(async () => expect((await call(first.url, 'GET', '/server/health')).body.status).toBe('ok'), 5_000, 100);
    } finally {
      await second.close();
    }
  });
});
