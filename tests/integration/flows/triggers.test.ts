import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let token: string;
let worker: JobWorker;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp({ FLOWS_ENV_ALLOW_LIST: 'FLOW_TEST_VISIBLE' });
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }] }).expect(200);
  worker = await startWorker(t.context, { pollIntervalMs: 100 });
});

afterAll(async () => {
  await worker?.stop();
  await t.context.events.idle();
  await t?.close();
});

it('webhook flow: GET runs the chain and answers the last operation, whole-string templates keep types', async () => {
  process.env.FLOW_TEST_VISIBLE = 'seen';
  process.env.FLOW_TEST_HIDDEN = 'secret';
  const { id } = await createFlow(t, token, { name: 'hook', trigger: 'webhook', options: { method: 'GET' } }, [
    { key: 'shape', type: 'transform', options: { json: { name: '{{ $trigger.query.name }}', greeting: 'Hi {{ $trigger.query.name }}!', env: '{{ $env.FLOW_TEST_VISIBLE }}', hidden: '{{ $env.FLOW_TEST_HIDDEN }}' } }, resolve: 'copy' },
    { key: 'copy', type: 'transform', options: { json: { previous: '{{ shape }}', last: '{{ $last.greeting }}' } } },
  ]);
  const response = await t.request.get(`/flows/trigger/${id}?name=Ada`).expect(200);
  expect(response.body).toEqual({ previous: { name: 'Ada', greeting: 'Hi Ada!', env: 'seen' }, last: 'Hi Ada!' });
  await t.request.post(`/flows/trigger/${id}`).expect(404);
});

it('webhook flow with async answers at once; return picks an operation key', async () => {
  const slow = await createFlow(t, token, { name: 'async', trigger: 'webhook', options: { method: 'POST', async: true } }, [{ key: 'wait', type: 'sleep', options: { milliseconds: 1500 } }]);
  const started = Date.now();
  expect((await t.request.post(`/flows/trigger/${slow.id}`).send({}).expect(204)).text).toBe('');
  expect(Date.now() - started).toBeLessThan(1000);
  const picked = await createFlow(t, token, { name: 'return', trigger: 'webhook', options: { method: 'POST', return: 'first' } }, [
    { key: 'first', type: 'transform', options: { json: { n: '{{ $trigger.body.n }}' } }, resolve: 'second' },
    { key: 'second', type: 'log', options: { message: 'n is {{ first.n }}' } },
  ]);
  expect((await t.request.post(`/flows/trigger/${picked.id}`).send({ n: 7 }).expect(200)).body).toEqual({ n: 7 });
});

it('condition: the reject path runs when the filter does not match', async () => {
  const { id } = await createFlow(t, token, { name: 'cond', trigger: 'webhook', options: { method: 'POST' } }, [
    { key: 'check', type: 'condition', options: { filter: { $trigger: { body: { amount: { _gt: 100 } } } } }, resolve: 'big', reject: 'small' },
    { key: 'big', type: 'transform', options: { json: { size: 'big' } } },
    { key: 'small', type: 'transform', options: { json: { size: 'small', why: '{{ check.message }}' } } },
  ]);
  expect((await t.request.post(`/flows/trigger/${id}`).send({ amount: 500 }).expect(200)).body).toEqual({ size: 'big' });
  expect((await t.request.post(`/flows/trigger/${id}`).send({ amount: 5 }).expect(200)).body).toEqual({ size: 'small', why: 'The condition was not met.' });
});

it('manual flow: POST {collection, keys} by a signed-in user; other collections and the public are refused', async () => {
  const article = (await t.request.post('/items/articles').set(auth()).send({ title: 'draft one', status: 'draft' }).expect(200)).body.data.id;
  const { id } = await createFlow(t, token, { name: 'publish', trigger: 'manual', options: { collections: ['articles'], requireConfirmation: true } }, [
    { key: 'publish', type: 'item-update', options: { collection: '{{ $trigger.collection }}', key: '{{ $trigger.keys }}', payload: { status: 'published' }, permissions: '$trigger' } },
  ]);
  await t.request.post(`/flows/trigger/${id}`).send({ collection: 'articles', keys: [article] }).expect(403);
  const wrong = await t.request.post(`/flows/trigger/${id}`).set(auth()).send({ collection: 'tessera_users', keys: [article] }).expect(400);
  expect(wrong.body.errors[0].extensions).toMatchObject({ field: 'collection' });
  await t.request.post(`/flows/trigger/${id}`).set(auth()).send({ collection: 'articles', keys: [article] }).expect(200);
  await waitFor(async () => (await t.request.get(`/items/articles/${article}`).set(auth())).body.data.status === 'published');
});

it('event filter flow changes the payload inside the write, and another refuses a write with its error', async () => {
  await createFlow(t, token, { name: 'shout', trigger: 'event', options: { type: 'filter', scope: ['items.create'], collections: ['articles'] } }, [
    { key: 'upper', type: 'transform', options: { json: { title: 'UPPER {{ $trigger.payload.title }}', status: '{{ $trigger.payload.status }}' } } },
  ]);
  await t.context.events.idle();
  const created = (await t.request.post('/items/articles').set(auth()).send({ title: 'calm', status: 'draft' }).expect(200)).body.data;
  expect(created.title).toBe('UPPER calm');

  await createFlow(t, token, { name: 'no-spam', trigger: 'event', options: { type: 'filter', scope: ['items.update'], collections: ['articles'] } }, [
    { key: 'guard', type: 'condition', options: { filter: { $trigger: { payload: { title: { _ncontains: 'spam' } } } } } },
  ]);
  await t.context.events.idle();
  const refused = await t.request.patch(`/items/articles/${created.id}`).set(auth()).send({ title: 'buy spam' }).expect(400);
  expect(refused.body.errors[0].message).toBe('The condition was not met.');
  expect((await t.request.get(`/items/articles/${created.id}`).set(auth())).body.data.title).toBe('UPPER calm');
  await t.request.patch(`/items/articles/${created.id}`).set(auth()).send({ title: 'fine' }).expect(200);
});

it('event action flow runs after commit and logs each run as activity with its steps when accountability is all', async () => {
  const { id } = await createFlow(t, token, { name: 'audit', trigger: 'event', accountability: 'all', options: { type: 'action', scope: ['items.delete'], collections: ['articles'] } }, [
    { key: 'note', type: 'item-create', options: { collection: 'articles', payload: { title: 'deleted {{ $trigger.keys }}', status: 'log' }, permissions: '$full', password: 'hunter2' } },
  ]);
  await t.context.events.idle();
  const victim = (await t.request.post('/items/articles').set(auth()).send({ title: 'bye', status: 'draft' }).expect(200)).body.data.id;
  await t.request.delete(`/items/articles/${victim}`).set(auth()).expect(204);
  // The run is a job the worker picks up.
  await waitFor(async () => (await t.request.get('/items/articles?filter[status][_eq]=log').set(auth())).body.data.length > 0, 15_000);
  const notes = (await t.request.get('/items/articles?filter[status][_eq]=log').set(auth()).expect(200)).body.data;
  // A delete's keys are the caller's: the path's string (Directus's action payload).
  expect(notes.map((note: { title: string }) => note.title)).toContain(`UPPER deleted ${JSON.stringify([String(victim)])}`);
  const runs = (await t.request.get(`/activity?filter[action][_eq]=run&filter[collection][_eq]=tessera_flows&filter[item][_eq]=${id}&fields=action,revisions.data`).set(auth()).expect(200)).body.data;
  expect(runs).toHaveLength(1);
  expect(runs[0].action).toBe('run');
  const steps = runs[0].revisions[0].data.steps;
  expect(steps[0]).toMatchObject({ key: 'note', status: 'resolve', options: { password: '**********' } });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
