import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

/** docs/versions.md: a version save fires no webhook, although it rehearses the main item's update (issue 37 item 5). */
let t: TestApp;
let token: string;
let receiver: Receiver;
let worker: JobWorker;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', LOG_LEVEL: 'silent' });
  token = await t.login();
  receiver = await startReceiver();
  await t.request.post('/collections').set(auth()).send({ collection: 'pages', meta: { versioning: true }, fields: [{ field: 'title', type: 'string' }] }).expect(200);
  await t.request.post('/items/pages').set(auth()).send([{ title: 'One' }, { title: 'Two' }]).expect(200);
  worker = await startWorker(t.context, { pollIntervalMs: 100 });
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await t?.close();
});

it('sends no webhook for a save: an update of another item made after it is delivered, the save never', async () => {
  await t.request.post('/webhooks').set(auth()).send({ name: 'pages', method: 'POST', status: 'active', data: true, actions: ['update'], collections: ['pages'], url: `${receiver.url}/pages` }).expect(200);
  const version = (await t.request.post('/versions').set(auth()).send({ key: 'draft', collection: 'pages', item: 1 }).expect(200)).body.data;
  await t.request.post(`/versions/${version.id}/save`).set(auth()).send({ title: 'Saved in the version' }).expect(200);

  // The sentinel: an update issued after the save, whose delivery must arrive.
  await t.request.patch('/items/pages/2').set(auth()).send({ title: 'Two, changed' }).expect(200);
  await receiver.waitFor(1, '/pages');
  // Nothing is left to relay or deliver: every delivery the save could have caused has run.
  const pending = async () => Number((await sql<{ count: string }>`select (select count(*) from tessera_automation.outbox) + (select count(*) from graphile_worker._private_jobs) as count`.execute(t.context.database.kysely())).rows[0]!.count);
  await expect.poll(pending).toBe(0);
  expect(receiver.received.map((call) => call.body.keys.map(String))).toEqual([['2']]);
  expect((await t.request.get('/items/pages/1').set(auth()).expect(200)).body.data.title).toBe('One');
});
