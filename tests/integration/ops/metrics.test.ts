import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { ConfigError } from '../../../server/errors.ts';
import { eventually } from '../../helpers/eventually.ts';
import { sampleValue } from '../../helpers/prometheus-text.ts';
import { withinDeadline } from '../../helpers/step-deadline.ts';
import { createSecondInstance, createTestApp, TEST_ENV, type TestApp } from '../../helpers/test-app.ts';
import { openSocket } from '../realtime/socket-client.ts';

const TOKEN = 'metrics-scrape-token-0123456789';
const SERVE = { PORT: '0', HOST: '127.0.0.1' };

/** A test app served by `listen()` (the path `tessera start` takes), so METRICS_ENABLED is wired as in production. */
async function served(env: Record<string, string>): Promise<{ t: TestApp; server: RunningServer; url: string; close(): Promise<void> }> {
  const t = await createTestApp({ ...SERVE, ...env });
  // Deadlines that name the step: closing once hung past the hook's timeout in a whole-suite run.
  const server = await withinDeadline('listen()', listen(t.context), t.testDatabase.name);
  return {
    t,
    server,
    url: `http://127.0.0.1:${server.port}`,
    close: async () => {
      await withinDeadline('closing the server', server.close(), t.testDatabase.name);
      await withinDeadline('closing the app', t.close(), t.testDatabase.name);
    },
  };
}

async function scrape(url: string, authorization = `Bearer ${TOKEN}`): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization } });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

describe('/metrics off (the default)', () => {
  let s: Awaited<ReturnType<typeof served>>;
  beforeAll(async () => (s = await served({})));
  afterAll(() => s.close());

  it('is not a route', async () => {
    const response = await fetch(`${s.url}/metrics`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).errors[0].extensions.code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('/metrics on', () => {
  let s: Awaited<ReturnType<typeof served>>;
  let admin: string;
  beforeAll(async () => {
    s = await served({ METRICS_ENABLED: 'true', METRICS_TOKENS: `other-token,${TOKEN}`, CACHE_ENABLED: 'true', DB_STATEMENT_TIMEOUT: '2s' });
    admin = await s.t.login();
  });
  afterAll(() => s.close());

  it('refuses a scrape without a token, with a wrong one, or from an address not allowed', async () => {
    for (const authorization of ['', 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await fetch(`${s.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(403);
      const body = (await response.json()) as any;
      expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
      expect(body.errors[0].message).toContain('METRICS_TOKENS');
    }
  });

  it("accepts each of METRICS_TOKENS as Bearer or as Directus's Metrics scheme", async () => {
    expect(await scrape(s.url)).toContain('tessera_http_requests_total');
    expect(await scrape(s.url, 'Bearer other-token')).toContain('tessera_instance_info');
    expect(await scrape(s.url, `Metrics ${TOKEN}`)).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts requests by route template and status, never by raw path', async () => {
    const before = await scrape(s.url);
    const pings = sampleValue(before, 'tessera_http_requests_total', { method: 'GET', route: '/server/ping', status: '200' }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await fetch(`${s.url}/server/ping`)).status).toBe(200);
    for (const collection of ['secret_name_one', 'secret_name_two']) expect((await fetch(`${s.url}/items/${collection}/17`)).status).toBe(403);
    expect((await fetch(`${s.url}/no/such/path-raw-xyz`)).status).toBe(404);

    const text = await scrape(s.url);
    expect(sampleValue(text, 'tessera_http_requests_total', { method: 'GET', route: '/server/ping', status: '200' })).toBe(pings + 3);
    expect(sampleValue(text, 'tessera_http_requests_total', { method: 'GET', route: '/items/:collection/:id', status: '403' })).toBe(2);
    expect(sampleValue(text, 'tessera_http_requests_total', { method: 'GET', route: '(no route)', status: '404' })).toBe(1);
    expect(sampleValue(text, 'tessera_http_request_duration_seconds_count', { method: 'GET', route: '/items/:collection/:id', status: '403' })).toBe(2);
    expect(sampleValue(text, 'tessera_http_request_duration_seconds_bucket', { route: '/items/:collection/:id', status: '403', le: '+Inf' })).toBe(2);
    expect(text).not.toContain('secret_name_one');
    expect(text).not.toContain('path-raw-xyz');
    // Scrapes are not requests of the API.
    expect(text).not.toContain('route="/metrics"');
  });

  it('counts response cache hits and misses', async () => {
    const before = await scrape(s.url);
    const hits = sampleValue(before, 'tessera_cache_requests_total', { result: 'hit' }) ?? 0;
    const misses = sampleValue(before, 'tessera_cache_requests_total', { result: 'miss' }) ?? 0;
    const read = () => fetch(`${s.url}/roles?limit=3`, { headers: { authorization: `Bearer ${admin}` } });
    expect((await read()).headers.get('x-cache')).toBe('MISS');
    expect((await read()).headers.get('x-cache')).toBe('HIT');
    const text = await scrape(s.url);
    expect(sampleValue(text, 'tessera_cache_requests_total', { result: 'hit' })).toBe(hits + 1);
    expect(sampleValue(text, 'tessera_cache_requests_total', { result: 'miss' })).toBe(misses + 1);
  });

  it('reports the database pool and counts statements stopped by DB_STATEMENT_TIMEOUT', async () => {
    const text = await scrape(s.url);
    expect(sampleValue(text, 'tessera_db_pool_max')).toBe(Number(TEST_ENV.DB_POOL_MAX));
    expect(sampleValue(text, 'tessera_db_pool_wait_seconds_count')).toBeGreaterThan(0);
    expect(sampleValue(text, 'tessera_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    const timeouts = sampleValue(text, 'tessera_db_statement_timeouts_total')!;
    expect(timeouts).toBeGreaterThanOrEqual(0);

    await expect(sql`select pg_sleep(10)`.execute(s.t.context.database.kysely())).rejects.toThrow(/statement timeout/);
    // Other failures are not timeouts.
    await expect(sql`select 1 / 0`.execute(s.t.context.database.kysely())).rejects.toThrow(/division by zero/);
    expect(sampleValue(await scrape(s.url), 'tessera_db_statement_timeouts_total')).toBe(timeouts + 1);
  });

  it('reports job queue depth, age and failures per task and the outbox lag, read from the database', async () => {
    const db = s.t.context.database.kysely();
    await sql`select graphile_worker.add_job('metrics-test-task', '{}'::json, run_at => now() + interval '1 hour')`.execute(db);
    await sql`select graphile_worker.add_job('metrics-test-task', '{}'::json, run_at => now() + interval '1 hour')`.execute(db);
    await sql`select graphile_worker.add_job('metrics-failing-task', '{}'::json, max_attempts => 1)`.execute(db);
    // As graphile-worker leaves a job that used its last attempt.
    await sql`update graphile_worker._private_jobs set attempts = max_attempts, last_error = 'boom', created_at = now() - interval '2 minutes'
      where task_id = (select id from graphile_worker._private_tasks where identifier = 'metrics-failing-task')`.execute(db);
    await sql`insert into tessera_automation.outbox (collection, action, keys, created_at) values ('metrics_probe', 'create', '[1]', now() - interval '90 seconds')`.execute(db);

    const text = await scrape(s.url);
    expect(sampleValue(text, 'tessera_jobs_queued', { task: 'metrics-test-task' })).toBe(2);
    expect(sampleValue(text, 'tessera_jobs_oldest_age_seconds', { task: 'metrics-test-task' })).toBeLessThan(60);
    expect(sampleValue(text, 'tessera_jobs_failed', { task: 'metrics-test-task' })).toBe(0);
    expect(sampleValue(text, 'tessera_jobs_failed', { task: 'metrics-failing-task' })).toBe(1);
    expect(sampleValue(text, 'tessera_jobs_queued', { task: 'metrics-failing-task' })).toBe(0);
    expect(sampleValue(text, 'tessera_outbox_events')).toBe(1);
    expect(sampleValue(text, 'tessera_outbox_lag_seconds')).toBeGreaterThanOrEqual(90);
  });

  it('reports realtime connections and subscriptions, process memory and event-loop delay', async () => {
    const created = await fetch(`${s.url}/collections`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ collection: 'metrics_notes', fields: [{ field: 'title', type: 'string' }] }) });
    expect(created.status).toBe(200);
    const socket = await openSocket(`${s.url.replace('http', 'ws')}/websocket`);
    socket.send({ type: 'auth', access_token: admin });
    await socket.next((message) => message.type === 'auth');
    socket.send({ type: 'subscribe', collection: 'metrics_notes', uid: 'u1' });
    expect(await socket.next((message) => message.type === 'subscription')).toMatchObject({ event: 'init', uid: 'u1' });
    const text = await scrape(s.url);
    expect(sampleValue(text, 'tessera_realtime_connections')).toBe(1);
    expect(sampleValue(text, 'tessera_realtime_subscriptions')).toBe(1);
    expect(sampleValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(sampleValue(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(text, 'tessera_extension_load_errors')).toBe(0);
    await socket.close();
    await eventually(async () => expect(sampleValue(await scrape(s.url), 'tessera_realtime_connections')).toBe(0), 5_000, 50);
  });
});

describe('/metrics by address', () => {
  // One database for the three configurations: each is another instance of the same project, served by listen().
  let base: TestApp;
  beforeAll(async () => (base = await createTestApp()));
  afterAll(() => base.close());

  async function statusServedWith(env: Record<string, string>): Promise<{ status: number; body: string }> {
    const instance = await createSecondInstance(base, { ...SERVE, ...env });
    const server = await listen(instance.context);
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      return { status: response.status, body: await response.text() };
    } finally {
      await server.close();
      await instance.close();
    }
  }

  // One instance per test: each starts a server of its own, which takes a while on a loaded machine.
  it('serves an address in METRICS_ALLOWED_IPS without a token', async () => {
    expect((await statusServedWith({ METRICS_ENABLED: 'true', METRICS_ALLOWED_IPS: '10.0.0.0/8, 127.0.0.0/8' })).status).toBe(200);
  });

  it('refuses an address outside METRICS_ALLOWED_IPS', async () => {
    expect((await statusServedWith({ METRICS_ENABLED: 'true', METRICS_ALLOWED_IPS: '10.0.0.0/8' })).status).toBe(403);
  });

  it('refuses everyone when neither list is set, saying so', async () => {
    const { status, body } = await statusServedWith({ METRICS_ENABLED: 'true' });
    expect(status).toBe(403);
    expect(JSON.parse(body).errors[0].message).toBe('Metrics are enabled but nobody may read them: set METRICS_TOKENS or METRICS_ALLOWED_IPS.');
  });

  it('refuses to start with an allow-list entry that is no address or range, naming the variable', () => {
    expect(() => loadConfig({ ...TEST_ENV, METRICS_ALLOWED_IPS: '10.0.0.0/8,intranet' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...TEST_ENV, METRICS_ALLOWED_IPS: '10.0.0.0/8,intranet' })).toThrow(/METRICS_ALLOWED_IPS/);
  });
});
