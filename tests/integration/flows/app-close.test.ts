import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../../server/app.ts';
import { scheduleTimers } from '../../../server/flows/schedule-triggers.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let token: string;
const auth = () => ({ Authorization: `Bearer ${token}` });
// Once a year: the timer exists but never fires during the test.
const YEARLY = '0 0 0 1 1 *';

/** What a write to tessera_flows announces: every app's triggers load the flows again. */
const flowsWritten = () => t.context.events.emit('tessera_flows.items.update', { collection: 'tessera_flows', keys: [], payload: null, accountability: null });
const nextTick = () => new Promise((resolve) => setImmediate(resolve));

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'notes', fields: [{ field: 'title', type: 'string' }] }).expect(200);
  await createFlow(t, token, { name: 'yearly', trigger: 'schedule', options: { cron: YEARLY } }, [{ key: 'log', type: 'log', options: { message: 'tick' } }]);
  await createFlow(t, token, { name: 'check notes', trigger: 'event', options: { type: 'filter', scope: ['items.create'], collections: ['notes'] } }, [{ key: 'log', type: 'log', options: { message: 'note' } }]);
  await eventually(async () => {
    expect(scheduleTimers()).toBe(1);
    expect(t.context.events.hasFilters(['notes.items.create'])).toBe(true);
  });
});

afterAll(async () => {
  await t.context.events.idle();
  await t?.close();
});

it('a second app on the context stops its timers on close, also when a reload was announced just before', async () => {
  const second = createApp(t.context);
  await eventually(async () => expect(scheduleTimers()).toBe(2));
  flowsWritten();
  second.close();
  expect(scheduleTimers()).toBe(1);
  // The reload announced before the close has run by now: it brought no timer back.
  await t.context.events.idle();
  expect(scheduleTimers()).toBe(1);
});

it('a reload still loading the flows when the app closes subscribes nothing', async () => {
  const second = createApp(t.context);
  await eventually(async () => expect(scheduleTimers()).toBe(2));
  flowsWritten();
  // The reload's handler has started and waits for its query.
  await nextTick();
  second.close();
  await t.context.events.idle();
  expect(scheduleTimers()).toBe(1);
});

it('closing the app stops its schedule timers and filter flow subscriptions; later flow writes do not bring them back', async () => {
  t.app.close();
  expect(scheduleTimers()).toBe(0);
  expect(t.context.events.hasFilters(['notes.items.create'])).toBe(false);
  await createFlow(t, token, { name: 'yearly too', trigger: 'schedule', options: { cron: YEARLY } }, []);
  await t.context.events.idle();
  expect(scheduleTimers()).toBe(0);
  expect(t.context.events.hasFilters(['notes.items.create'])).toBe(false);
});
