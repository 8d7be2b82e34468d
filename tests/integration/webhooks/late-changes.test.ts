import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { relayOutbox } from '../../../server/jobs/outbox-relay.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

/** docs/automation.md: a delivery reads its webhook as it is when it runs (issue 37 item 1). */
let t: TestApp;
let token: string;
let receiver: Receiver;
let worker: JobWorker | undefined;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  token = await t.login();
  receiver = await startReceiver();
  await t.request.post('/collections').set(auth()).send({ collection: 'notes', fields: [{ field: 'body', type: 'string' }] }).expect(200);
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await t?.close();
});

it('sends nothing for a webhook deactivated or deleted after its delivery was queued', async () => {
  const create = async (path: string) =>
    (await t.request.post('/webhooks').set(auth()).send({ name: path, method: 'POST', status: 'active', actions: ['create'], collections: ['notes'], url: `${receiver.url}${path}` }).expect(200)).body.data.id as number;
  const off = await create('/off');
  const gone = await create('/gone');
  const sentinel = await create('/sentinel');
  await t.request.post('/items/notes').set(auth()).send({ body: 'queued' }).expect(200);

  // The deliveries are queued as jobs (the relay's step), then the webhooks change before any runs.
  expect(await relayOutbox(t.context.database.kysely(), t.context.outbox)).toBe(1);
  const queued = async () => {
    const { rows } = await sql<{ webhook: string }>`select payload->>'webhook' as webhook from graphile_worker._private_jobs`.execute(t.context.database.kysely());
    return rows.map((row) => Number(row.webhook)).sort((a, b) => a - b);
  };
  expect(await queued()).toEqual([off, gone, sentinel].sort((a, b) => a - b));
  await t.request.patch(`/webhooks/${off}`).set(auth()).send({ status: 'inactive' }).expect(200);
  await t.request.delete(`/webhooks/${gone}`).set(auth()).expect(204);

  worker = await startWorker(t.context, { pollIntervalMs: 100 });
  await receiver.waitFor(1, '/sentinel');
  // Every queued delivery has run (the two no-ops included) once the queue is empty.
  await expect.poll(queued).toEqual([]);
  expect(receiver.received.map((call) => call.path)).toEqual(['/sentinel']);
});
