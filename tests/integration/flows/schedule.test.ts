import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, type TesseraApp } from '../../../server/app.ts';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let second: TesseraApp;
let worker: JobWorker;
let token: string;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp();
  // A second instance on the same database: it runs its own schedule timers.
  second = createApp(t.context);
  // The instance whose claim of a tick wins enqueues its run; a job worker runs it.
  worker = await startWorker(t.context);
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'ticks', fields: [{ field: 'at', type: 'string' }] }).expect(200);
});

afterAll(async () => {
  second?.close();
  await worker?.stop();
  await t.context.events.idle();
  await t?.close();
});

it('a schedule flow with a 6-field cron fires every second, and each tick runs once across two instances', async () => {
  const tickRows = async (collection: string) => ((await t.request.get(`/items/${collection}?limit=-1`).set(auth()).expect(200)).body.data as Array<{ at: string }>).map((row) => row.at);
  const { id } = await createFlow(t, token, { name: 'every second', trigger: 'schedule', options: { cron: '* * * * * *' } }, [
    { key: 'row', type: 'item-create', options: { collection: 'ticks', payload: { at: '{{ $trigger.$schedule }}' }, permissions: '$full' } },
  ]);
  // Three ticks, each written once although both instances' timers fire it.
  await eventually(async () => expect((await tickRows('ticks')).length).toBeGreaterThanOrEqual(3), 30_000, 100);
  await t.request.patch(`/flows/${id}`).set(auth()).send({ status: 'inactive' }).expect(200);
  const stoppedAt = Date.now();
  const ticks = await tickRows('ticks');
  expect(new Set(ticks).size).toBe(ticks.length);

  // The sentinel: another every-second flow. Once it has run a tick scheduled two seconds after the first
  // flow stopped, a first flow still ticking would have written its own for the second before.
  await t.request.post('/collections').set(auth()).send({ collection: 'sentinel_ticks', fields: [{ field: 'at', type: 'string' }] }).expect(200);
  await createFlow(t, token, { name: 'sentinel', trigger: 'schedule', options: { cron: '* * * * * *' } }, [
    { key: 'row', type: 'item-create', options: { collection: 'sentinel_ticks', payload: { at: '{{ $trigger.$schedule }}' }, permissions: '$full' } },
  ]);
  await eventually(async () => expect((await tickRows('sentinel_ticks')).some((at) => Date.parse(at) >= stoppedAt + 2_000)).toBe(true), 30_000, 100);
  const after = await tickRows('ticks');
  expect(after.filter((at) => Date.parse(at) >= stoppedAt + 1_000)).toEqual([]);
  expect(new Set(after).size).toBe(after.length);
});
