import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let t: TestApp;
let token: string;
let receiver: Receiver;
let worker: JobWorker;
const auth = () => ({ Authorization: `Bearer ${token}` });

async function createWebhook(body: Record<string, unknown>): Promise<number> {
  const response = await t.request.post('/webhooks').set(auth()).send({ name: 'hook', method: 'POST', status: 'active', data: true, actions: ['create', 'update', 'delete'], ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.id as number;
}

/**
 * Resolves once every event is relayed and every delivery of the webhook has run: whatever it was going to
 * send has been sent (the positive condition "nothing more will arrive" waits for, instead of a fixed time).
 */
async function settled(webhook: number): Promise<void> {
  const outbox = async () => Number((await sql<{ count: string }>`select count(*) from tessera_automation.outbox`.execute(t.context.database.kysely())).rows[0]!.count);
  await expect.poll(async () => (await outbox()) + (await queuedJobs(webhook))).toBe(0);
}

/** Jobs of a webhook still in graphile-worker's queue. */
async function queuedJobs(webhook: number): Promise<number> {
  const { rows } = await sql<{ count: string }>`select count(*) from graphile_worker._private_jobs where payload->>'webhook' = ${String(webhook)}`.execute(t.context.database.kysely());
  return Number(rows[0]!.count);
}

beforeAll(async () => {
  t = await createTestApp({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', LOG_LEVEL: 'silent' });
  token = await t.login();
  receiver = await startReceiver();
  await t.request.post('/collections').set(auth()).send({ collection: 'articles', fields: [{ field: 'title', type: 'string', schema: { is_nullable: false } }] }).expect(200);
  await t.request.post('/collections').set(auth()).send({ collection: 'notes', fields: [{ field: 'body', type: 'string' }] }).expect(200);
  worker = await startWorker(t.context, { pollIntervalMs: 100 });
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await t?.close();
});

describe('webhook validation', () => {
  it.each([
    [{ actions: ['wat'] }, 'actions', 'create, update, delete'],
    [{ status: 'weird' }, 'status', 'active, inactive'],
    [{ method: 'PUT' }, 'method', 'GET, POST'],
    [{ collections: ['nope'] }, 'collections', '"nope"'],
    [{ url: 'ftp://example.com' }, 'url', 'http://'],
    [{ data: 'yes' }, 'data', 'true or false'],
    [{ headers: [{ header: 'X-Bad\r\nInjected', value: '1' }] }, 'headers', 'header name'],
    [{ actions: [] }, 'actions', 'at least one'],
  ])('refuses %j with a 400 naming the field', async (change, field, message) => {
    const response = await t.request.post('/webhooks').set(auth()).send({ name: 'bad', url: `${receiver.url}/x`, actions: ['create'], collections: ['articles'], ...change });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    expect(response.body.errors[0].message).toContain(message);
  });

  it('checks the values an update changes', async () => {
    const id = await createWebhook({ url: `${receiver.url}/validate`, collections: ['notes'], status: 'inactive' });
    const response = await t.request.patch(`/webhooks/${id}`).set(auth()).send({ status: 'weird' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions.field).toBe('status');
  });
});

describe('webhook deliveries', () => {
  it('POSTs create, update and delete of an item with Directus-shaped bodies', async () => {
    const id = await createWebhook({ url: `${receiver.url}/post`, collections: ['articles'], headers: [{ header: 'X-Secret', value: 's3cret' }] });
    const created = await t.request.post('/items/articles').set(auth()).send({ title: 'Hello' }).expect(200);
    const key = created.body.data.id;
    await t.request.patch(`/items/articles/${key}`).set(auth()).send({ title: 'Changed' }).expect(200);
    await t.request.delete(`/items/articles/${key}`).set(auth()).expect(204);
    const calls = await receiver.waitFor(3, '/post');
    expect(calls.map((call) => call.method)).toEqual(['POST', 'POST', 'POST']);
    const byEvent = Object.fromEntries(calls.map((call) => [call.body.event, call]));
    expect(byEvent['items.create']!.body).toMatchObject({ event: 'items.create', collection: 'articles', keys: [key], key, payload: { title: 'Hello' } });
    expect(byEvent['items.create']!.body.accountability.user).toEqual(expect.any(String));
    expect(byEvent['items.update']!.body).toMatchObject({ collection: 'articles', keys: [key], payload: { title: 'Changed' } });
    // A delete lists the keys as the caller sent them, as Directus does: the path's string here.
    expect(byEvent['items.delete']!.body).toMatchObject({ collection: 'articles', keys: [String(key)] });
    expect(byEvent['items.create']!.headers['x-secret']).toBe('s3cret');
    expect(byEvent['items.create']!.headers['content-type']).toBe('application/json');

    // A delivery is logged once its receiver has answered: the third row may come just after the third call.
    await settled(id);
    const log = await t.request.get(`/webhooks/${id}/deliveries`).set(auth()).expect(200);
    expect(log.body.data).toHaveLength(3);
    expect(log.body.data[0]).toMatchObject({ status: 'success', http_status: 200, attempt: 1 });
    await t.request.get(`/webhooks/${id}/deliveries`).expect(403);
  });

  it('calls a GET webhook without a body, and only for its actions', async () => {
    const id = await createWebhook({ url: `${receiver.url}/get`, method: 'GET', actions: ['update'], collections: ['notes'] });
    const created = await t.request.post('/items/notes').set(auth()).send({ body: 'a' }).expect(200);
    await t.request.patch(`/items/notes/${created.body.data.id}`).set(auth()).send({ body: 'b' }).expect(200);
    const [call] = await receiver.waitFor(1, '/get');
    expect(call).toMatchObject({ method: 'GET', body: null });
    // The create was not one of its actions: one call only, once nothing is left to relay or deliver.
    await settled(id);
    expect(receiver.received.filter((c) => c.path === '/get')).toHaveLength(1);
  });

  it('leaves out the payload when data is false', async () => {
    await createWebhook({ url: `${receiver.url}/nodata`, data: false, actions: ['create'], collections: ['notes'] });
    await t.request.post('/items/notes').set(auth()).send({ body: 'secret' }).expect(200);
    const [call] = await receiver.waitFor(1, '/nodata');
    expect(call!.body.payload).toBeNull();
    expect(call!.body.keys).toHaveLength(1);
  });

  it('delivers for collections that keep no activity, and for activity without revisions', async () => {
    await t.request.post('/collections').set(auth()).send({ collection: 'silent', meta: { accountability: null }, fields: [{ field: 'v', type: 'string' }] }).expect(200);
    await t.request.post('/collections').set(auth()).send({ collection: 'light', meta: { accountability: 'activity' }, fields: [{ field: 'v', type: 'string' }] }).expect(200);
    await createWebhook({ url: `${receiver.url}/quiet`, collections: ['silent', 'light'] });
    for (const collection of ['silent', 'light']) {
      const { body } = await t.request.post(`/items/${collection}`).set(auth()).send({ v: 'a' }).expect(200);
      await t.request.patch(`/items/${collection}/${body.data.id}`).set(auth()).send({ v: 'b' }).expect(200);
      await t.request.delete(`/items/${collection}/${body.data.id}`).set(auth()).expect(204);
    }
    const calls = await receiver.waitFor(6, '/quiet');
    expect(calls.map((call) => `${call.body.collection} ${call.body.event}`).sort()).toEqual([
      'light items.create', 'light items.delete', 'light items.update', 'silent items.create', 'silent items.delete', 'silent items.update',
    ]);
  });

  it('sends nothing for an inactive webhook', async () => {
    const inactive = await createWebhook({ url: `${receiver.url}/inactive`, status: 'inactive', collections: ['articles'] });
    await createWebhook({ url: `${receiver.url}/active`, actions: ['create'], collections: ['articles'] });
    await t.request.post('/items/articles').set(auth()).send({ title: 'x' }).expect(200);
    await receiver.waitFor(1, '/active');
    expect(await queuedJobs(inactive)).toBe(0);
    expect(receiver.received.filter((call) => call.path === '/inactive')).toHaveLength(0);
  });

  it('sends nothing for a write that rolls back', async () => {
    const id = await createWebhook({ url: `${receiver.url}/rollback`, actions: ['create'], collections: ['articles'] });
    // The second item breaks NOT NULL: the batch, and the first item's delivery with it, roll back.
    const response = await t.request.post('/items/articles').set(auth()).send([{ title: 'kept?' }, { title: null }]);
    expect(response.status).toBe(400);
    expect(await queuedJobs(id)).toBe(0);
    await t.request.post('/items/articles').set(auth()).send({ title: 'after' }).expect(200);
    const calls = await receiver.waitFor(1, '/rollback');
    await settled(id);
    expect(receiver.received.filter((call) => call.path === '/rollback')).toHaveLength(1);
    expect(calls[0]!.body.payload).toEqual({ title: 'after' });
  });

  it('retries after the receiver fails, then succeeds, and logs both attempts', async () => {
    const id = await createWebhook({ url: `${receiver.url}/retry`, actions: ['create'], collections: ['notes'] });
    receiver.failures['/retry'] = 1;
    await t.request.post('/items/notes').set(auth()).send({ body: 'retry me' }).expect(200);
    const calls = await receiver.waitFor(2, '/retry', 20_000);
    expect(calls[0]!.body).toEqual(calls[1]!.body);
    let log: any;
    for (let i = 0; i < 40; i++) {
      log = (await t.request.get(`/webhooks/${id}/deliveries`).set(auth()).expect(200)).body;
      // The job itself is marked done a few milliseconds after its log row (completions are batched).
      if (log.data.length === 2 && log.meta.queued.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(log.data.map((row: any) => [row.attempt, row.status, row.http_status])).toEqual([
      [2, 'success', 200],
      [1, 'failed', 500],
    ]);
    expect(log.data[1].error).toContain('500');
    expect(log.meta.queued).toEqual([]);
  }, 30_000);

  it('gives up on a receiver that does not answer within 5 seconds, and logs the timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    try {
      const id = await createWebhook({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/silent`, actions: ['create'], collections: ['notes'] });
      await t.request.post('/items/notes').set(auth()).send({ body: 'nobody listens' }).expect(200);
      let log: any;
      for (let i = 0; i < 600; i++) {
        log = (await t.request.get(`/webhooks/${id}/deliveries`).set(auth()).expect(200)).body;
        if (log.data.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Its retries would wait on the same silence: the webhook is switched off, so they send nothing.
      await t.request.patch(`/webhooks/${id}`).set(auth()).send({ status: 'inactive' }).expect(200);
      expect(log.data[0]).toMatchObject({ status: 'failed', http_status: null, attempt: 1 });
      expect(log.data[0].error).toMatch(/timed? ?out|timeout/i);
      expect(log.data[0].duration_ms).toBeGreaterThanOrEqual(5_000);
      // Given up at 5 s, not later (slack for a loaded machine, well below a doubled timeout).
      expect(log.data[0].duration_ms).toBeLessThan(8_000);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 60_000);

  it('refuses a loopback address the allow-list does not name, and logs why', async () => {
    const id = await createWebhook({ url: `http://[::1]:${receiver.port}/blocked`, actions: ['create'], collections: ['notes'] });
    await t.request.post('/items/notes').set(auth()).send({ body: 'blocked' }).expect(200);
    const deliveries = async () => (await t.request.get(`/webhooks/${id}/deliveries`).set(auth()).expect(200)).body;
    // The delivery log is written inside the job; the queue marks the job for a retry just after it ends.
    await expect.poll(async () => (await deliveries()).meta.queued[0]?.state).toBe('retrying');
    const log = await deliveries();
    expect(log.data[0]).toMatchObject({ status: 'failed', http_status: null });
    expect(log.data[0].error).toContain('loopback');
    expect(log.meta.queued[0]).toMatchObject({ state: 'retrying', attempts: 1, max_attempts: 5 });
    expect(receiver.received.filter((call) => call.path === '/blocked')).toHaveLength(0);
  });

  it('runs each job once with two workers on one database', async () => {
    const second = await startWorker(t.context, { pollIntervalMs: 100 });
    try {
      const id = await createWebhook({ url: `${receiver.url}/once`, actions: ['create'], collections: ['articles'] });
      const items = Array.from({ length: 30 }, (_, i) => ({ title: `item ${i}` }));
      const keys = (await t.request.post('/items/articles').set(auth()).send(items).expect(200)).body.data.map((item: any) => item.id);
      await receiver.waitFor(30, '/once');
      await settled(id);
      const delivered = receiver.received.filter((call) => call.path === '/once').map((call) => call.body.key);
      expect(delivered).toHaveLength(30);
      expect(new Set(delivered)).toEqual(new Set(keys));
    } finally {
      await second.stop();
    }
  });
});
