import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, type TesseraApp } from '../../../server/app.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let second: TesseraApp;
let token: string;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp();
  // A second instance on the same database: it runs its own schedule timers.
  second = createApp(t.context);
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'ticks', fields: [{ field: 'at', type: 'string' }] }).expect(200);
});

afterAll(async () => {
  second?.close();
  await t.context.events.idle();
  await t?.close();
});

it('a schedule flow with a 6-field cron fires every second, and each tick runs once across two instances', async () => {
  const { id } = await createFlow(t, token, { name: 'every second', trigger: 'schedule', options: { cron: '* * * * * *' } }, [
    { key: 'row', type: 'item-create', options: { collection: 'ticks', payload: { at: '{{ $trigger.$schedule }}' }, permissions: '$full' } },
  ]);
  await t.context.events.idle();
  await new Promise((resolve) => setTimeout(resolve, 3500));
  await t.request.patch(`/flows/${id}`).set(auth()).send({ status: 'inactive' }).expect(200);
  await t.context.events.idle();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const rows = (await t.request.get('/items/ticks?limit=-1').set(auth()).expect(200)).body.data as Array<{ at: string }>;
  const ticks = rows.map((row) => row.at);
  expect(ticks.length).toBeGreaterThanOrEqual(2);
  expect(new Set(ticks).size).toBe(ticks.length);
  await new Promise((resolve) => setTimeout(resolve, 1200));
  expect((await t.request.get('/items/ticks?limit=-1').set(auth())).body.data).toHaveLength(rows.length);
});
