import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { startOutboxRelay, type OutboxRelay } from '../../../server/jobs/outbox-relay.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let token: string;
let worker: JobWorker | null = null;
let relay: OutboxRelay | null = null;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'silent' });
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'orders', fields: [{ field: 'title', type: 'string', schema: { is_nullable: false } }, { field: 'note', type: 'string' }] }).expect(200);
  await t.request.post('/collections').set(auth()).send({ collection: 'ledger', fields: [{ field: 'entry', type: 'string' }] }).expect(200);
});

afterAll(async () => {
  await relay?.stop();
  await worker?.stop();
  await t.context.events.idle();
  await t?.close();
});

/** Action flow run jobs of a flow still in graphile-worker's queue. */
async function queuedRuns(flow: string): Promise<number> {
  const { rows } = await sql<{ count: string }>`select count(*) from graphile_worker._private_jobs where payload->>'flow' = ${flow}`.execute(t.context.database.kysely());
  return Number(rows[0]!.count);
}

/** Write events still in the automation outbox (not yet turned into jobs). */
async function outboxEvents(): Promise<number> {
  const { rows } = await sql<{ count: string }>`select count(*) from tessera_automation.outbox`.execute(t.context.database.kysely());
  return Number(rows[0]!.count);
}

async function ledger(): Promise<string[]> {
  const rows = (await t.request.get('/items/ledger?sort=id&limit=-1').set(auth()).expect(200)).body.data as Array<{ entry: string }>;
  return rows.map((row) => row.entry);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('an action flow run is a job enqueued with the write: a committed write gets it, a rolled-back one never does', async () => {
  const { id } = await createFlow(t, token, { name: 'book it', trigger: 'event', accountability: 'all', options: { type: 'action', scope: ['items.create'], collections: ['orders'] } }, [
    { key: 'book', type: 'item-create', options: { collection: 'ledger', payload: { entry: 'order {{ $trigger.key }}: {{ $trigger.payload.title }}' }, permissions: '$full' } },
  ]);
  // No worker yet, only the outbox relay a server runs: the run waits in the queue, visible with its state.
  relay = startOutboxRelay(t.context);
  const created = (await t.request.post('/items/orders').set(auth()).send({ title: 'first' }).expect(200)).body.data.id;
  await waitFor(async () => (await queuedRuns(id)) === 1);
  const log = (await t.request.get(`/flows/${id}/runs`).set(auth()).expect(200)).body;
  expect(log.data).toEqual([]);
  expect(log.meta.queued).toMatchObject([{ state: 'queued', attempts: 0, max_attempts: 3 }]);
  // The second order breaks NOT NULL: the batch rolls back, and with it the first order's run.
  expect((await t.request.post('/items/orders').set(auth()).send([{ title: 'kept?' }, { title: null }])).status).toBe(400);
  await relay.stop();
  expect(await queuedRuns(id)).toBe(1);
  expect(await outboxEvents()).toBe(0);

  worker = await startWorker(t.context, { pollIntervalMs: 100 });
  await waitFor(async () => (await ledger()).length === 1);
  expect(await ledger()).toEqual([`order ${created}: first`]);
  await waitFor(async () => (await queuedRuns(id)) === 0);
  const runs = (await t.request.get(`/flows/${id}/runs`).set(auth()).expect(200)).body.data;
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ status: 'resolved', trigger: { event: 'orders.items.create', key: created, collection: 'orders', payload: { title: 'first' } }, steps: [{ key: 'book', status: 'resolve' }] });
  await t.request.get(`/flows/${id}/runs`).expect(403);
  await t.request.patch(`/flows/${id}`).set(auth()).send({ status: 'inactive' }).expect(200);
});

it('the one-statement create enqueues the run too, and the run sees the creator as $trigger accountability', async () => {
  await t.request.post('/items/ledger').set(auth()).send({ entry: 'marker' }).expect(200);
  const before = (await ledger()).length;
  const { id } = await createFlow(t, token, { name: 'who', trigger: 'event', options: { type: 'action', scope: 'items.create', collections: 'orders' } }, [
    { key: 'note', type: 'item-create', options: { collection: 'ledger', payload: { entry: 'by admin {{ $accountability.admin }}' }, permissions: '$trigger' } },
  ]);
  await t.request.post('/items/orders').set(auth()).send({ title: 'flat' }).expect(200);
  await waitFor(async () => (await ledger()).length === before + 1);
  expect((await ledger()).at(-1)).toBe('by admin true');
  await t.request.patch(`/flows/${id}`).set(auth()).send({ status: 'inactive' }).expect(200);
});

it("a filter flow's item operations run on the write's own transaction: they see it and roll back with it", async () => {
  // Counts the orders visible to the flow: inside the write's transaction it sees the batch's earlier item.
  const { id } = await createFlow(t, token, { name: 'number it', trigger: 'event', options: { type: 'filter', scope: ['items.create'], collections: ['orders'] } }, [
    { key: 'seen', type: 'item-read', options: { collection: 'orders', query: { aggregate: { count: '*' } }, permissions: '$full' }, resolve: 'book' },
    { key: 'book', type: 'item-create', options: { collection: 'ledger', payload: { entry: 'filter saw {{ seen.0.count }} for {{ $trigger.payload.title }}' }, permissions: '$full' }, resolve: 'guard' },
    { key: 'guard', type: 'condition', options: { filter: { $trigger: { payload: { title: { _ncontains: 'spam' } } } } }, resolve: 'shape' },
    { key: 'shape', type: 'transform', options: { json: { title: '{{ $trigger.payload.title }}', note: 'seen {{ seen.0.count }}' } } },
  ]);
  await t.context.events.idle();
  const count = Number((await t.request.get('/items/orders?aggregate[count]=*').set(auth()).expect(200)).body.data[0].count);
  const before = await ledger();
  const batch = (await t.request.post('/items/orders').set(auth()).send([{ title: 'a' }, { title: 'b' }]).expect(200)).body.data;
  expect(batch.map((item: { note: string }) => item.note)).toEqual([`seen ${count}`, `seen ${count + 1}`]);
  expect((await ledger()).slice(before.length)).toEqual([`filter saw ${count} for a`, `filter saw ${count + 1} for b`]);

  // The condition rejects the second item: the whole write refuses, and the ledger rows the flow wrote for both roll back.
  const refused = await t.request.post('/items/orders').set(auth()).send([{ title: 'fine' }, { title: 'spam' }]).expect(400);
  expect(refused.body.errors[0].message).toBe('The condition was not met.');
  expect(await ledger()).toEqual([...before, `filter saw ${count} for a`, `filter saw ${count + 1} for b`]);
  expect(Number((await t.request.get('/items/orders?aggregate[count]=*').set(auth()).expect(200)).body.data[0].count)).toBe(count + 2);
  await t.request.patch(`/flows/${id}`).set(auth()).send({ status: 'inactive' }).expect(200);
});

it("an action flow whose operation rejects finishes its run as rejected, and its job is not retried", async () => {
  // A condition no order meets rejects the run; the ledger write after it never happens.
  const { id } = await createFlow(t, token, { name: 'reject it', trigger: 'event', accountability: 'all', options: { type: 'action', scope: ['items.create'], collections: ['orders'] } }, [
    { key: 'guard', type: 'condition', options: { filter: { $trigger: { payload: { title: { _eq: 'never' } } } } }, resolve: 'book' },
    { key: 'book', type: 'item-create', options: { collection: 'ledger', payload: { entry: 'should not be written' }, permissions: '$full' } },
  ]);
  await t.context.events.idle();
  worker ??= await startWorker(t.context, { pollIntervalMs: 100 });
  relay ??= startOutboxRelay(t.context);
  await t.request.post('/items/orders').set(auth()).send({ title: 'refused' }).expect(200);
  await waitFor(async () => (await t.request.get(`/flows/${id}/runs`).set(auth()).expect(200)).body.data.length === 1);
  const log = (await t.request.get(`/flows/${id}/runs`).set(auth()).expect(200)).body;
  expect(log.data[0]).toMatchObject({ status: 'rejected', steps: [{ key: 'guard', status: 'reject' }] });
  // A retried job would still be queued (retrying) once its first attempt is logged; this one is done.
  await waitFor(async () => (await queuedRuns(id)) === 0);
  expect((await t.request.get(`/flows/${id}/runs`).set(auth()).expect(200)).body.data).toHaveLength(1);
  expect(await ledger()).not.toContain('should not be written');
  await t.request.patch(`/flows/${id}`).set(auth()).send({ status: 'inactive' }).expect(200);
});
