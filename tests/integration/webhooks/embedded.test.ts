import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { createEmbeddedApp, type EmbeddedApp } from '../../helpers/embedded-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let embedded: EmbeddedApp;
let worker: JobWorker;
let receiver: Receiver;

beforeAll(async () => {
  embedded = await createEmbeddedApp('tessera-jobs-', { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  receiver = await startReceiver();
  worker = await startWorker(embedded.context, { pollIntervalMs: 100 });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await embedded?.close();
});

it('enqueues in the write and delivers on the embedded PGlite database (through its socket server)', async () => {
  const { request, auth, database } = embedded;
  expect(database.embedded).toBe(true);
  await request.post('/collections').set(auth).send({ collection: 'pages', fields: [{ field: 'title', type: 'string' }] }).expect(200);
  await request.post('/webhooks').set(auth).send({ name: 'pages', url: `${receiver.url}/embedded`, actions: ['create', 'update'], collections: ['pages'] }).expect(200);
  const created = await request.post('/items/pages').set(auth).send({ title: 'Home' }).expect(200);
  await request.patch(`/items/pages/${created.body.data.id}`).set(auth).send({ title: 'Start' }).expect(200);
  const calls = await receiver.waitFor(2, '/embedded', 30_000);
  expect(calls.map((call) => call.body.event).sort()).toEqual(['items.create', 'items.update']);
}, 60_000);
