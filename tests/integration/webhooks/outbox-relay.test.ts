import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { relayOutbox } from '../../../server/jobs/outbox-relay.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let t: TestApp;
let token: string;
let receiver: Receiver;
let server: RunningServer | null = null;
let worker: JobWorker | null = null;
const auth = () => ({ Authorization: `Bearer ${token}` });

async function count(table: string, where = sql`true`): Promise<number> {
  const { rows } = await sql<{ count: string }>`select count(*) from ${sql.raw(table)} where ${where}`.execute(t.context.database.kysely());
  return Number(rows[0]!.count);
}
const outbox = () => count('tessera_automation.outbox');
const jobsOf = (path: string) => count('graphile_worker._private_jobs', sql`payload->>'webhook' in (select id::text from tessera_webhooks where url like ${`%${path}`})`);

beforeAll(async () => {
  // JOBS_BUSY_RATE=0: while requests saturate the server, no job starts at all.
  t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', JOBS_BUSY_RATE: '0', LOG_LEVEL: 'silent' });
  token = await t.login();
  receiver = await startReceiver();
  for (const collection of ['notes', 'quiet', 'bulk', 'load']) await t.request.post('/collections').set(auth()).send({ collection, fields: [{ field: 'body', type: 'string' }] }).expect(200);
  for (const collection of ['notes', 'bulk', 'load']) {
    await t.request.post('/webhooks').set(auth()).send({ name: collection, method: 'POST', status: 'active', data: true, actions: ['create'], collections: [collection], url: `${receiver.url}/${collection}` }).expect(200);
  }
});

afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await receiver?.close();
  await t?.close();
});

describe('the automation outbox', () => {
  it('records a listened write in its own transaction, one event per created item, and nothing for a write nobody listens to', async () => {
    await t.request.post('/items/notes').set(auth()).send([{ body: 'a' }, { body: 'b' }, { body: 'c' }]).expect(200);
    await t.request.post('/items/quiet').set(auth()).send({ body: 'nobody listens' }).expect(200);
    expect(await outbox()).toBe(3);
    // A write that fails part-way records nothing.
    expect((await t.request.post('/items/notes').set(auth()).send([{ body: 'd' }, { nope: 1 }])).status).toBe(400);
    expect(await outbox()).toBe(3);
    expect(await relayOutbox(t.context.database.kysely(), t.context.outbox)).toBe(3);
    expect(await outbox()).toBe(0);
    expect(await jobsOf('/notes')).toBe(3);
  });

  it('two relays at once turn each event into its job exactly once', async () => {
    await t.request.post('/items/bulk').set(auth()).send(Array.from({ length: 1_200 }, (_, i) => ({ body: `bulk ${i}` }))).expect(200);
    expect(await outbox()).toBe(1_200);
    const drain = async () => {
      let moved = 0;
      for (let batch = await relayOutbox(t.context.database.kysely(), t.context.outbox); batch > 0; batch = await relayOutbox(t.context.database.kysely(), t.context.outbox)) moved += batch;
      return moved;
    };
    const [first, second] = await Promise.all([drain(), drain()]);
    expect(first + second).toBe(1_200);
    expect(await outbox()).toBe(0);
    expect(await jobsOf('/bulk')).toBe(1_200);
    const { rows } = await sql<{ keys: string }>`select count(distinct payload->'body'->>'key') as keys from graphile_worker._private_jobs
      where payload->>'webhook' in (select id::text from tessera_webhooks where url like '%/bulk')`.execute(t.context.database.kysely());
    expect(Number(rows[0]!.keys)).toBe(1_200);
  });
});

describe('jobs give way to requests that saturate the server', () => {
  it('holds a delivery while reads keep the server busy, and sends it once they stop', { timeout: 120_000 }, async () => {
    server = await listen(t.context);
    worker = await startWorker(t.context, { pollIntervalMs: 100 });
    // Whatever earlier tests queued is delivered first.
    for (let waited = 0; (await count('graphile_worker._private_jobs')) + (await outbox()) > 0; waited += 50) {
      if (waited > 60_000) throw new Error('the queue did not drain');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const base = `http://127.0.0.1:${server.port}`;
    let stop = false;
    const loop = async () => {
      while (!stop) {
        const response = await fetch(`${base}/items/bulk?limit=50&sort=-id`, { headers: auth() });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
    };
    // Twenty readers keep a request in flight all the time: the server is saturated (server/jobs/foreground-load.ts).
    const loops = Array.from({ length: 20 }, loop);
    try {
      await eventually(async () => expect(t.context.foreground.saturated).toBe(true), 30_000);
      const created = await fetch(`${base}/items/load`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify({ body: 'held' }) });
      expect(created.status).toBe(200);
      // The sentinel: the worker has taken the delivery's job (locked it) and holds it at its turn.
      await eventually(async () => expect(await count('graphile_worker._private_jobs', sql`locked_at is not null`)).toBe(1), 30_000);
      expect(receiver.received.filter((call) => call.path === '/load')).toEqual([]);
    } finally {
      stop = true;
      await Promise.all(loops);
    }
    const [delivery] = await receiver.waitFor(1, '/load', 30_000);
    expect(delivery!.body).toMatchObject({ event: 'items.create', collection: 'load', payload: { body: 'held' } });
  });
});
