import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { createFlow } from './flow-fixture.ts';

let t: TestApp;
let token: string;
let receiver: Receiver;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  token = await t.login();
  await t.request.post('/collections').set(auth()).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }] }).expect(200);
});

afterAll(async () => {
  await t.context.events.idle();
  await t?.close();
  await receiver?.close();
});

const hook = (operations: Parameters<typeof createFlow>[3]) => createFlow(t, token, { name: 'ops', trigger: 'webhook', options: { method: 'POST' } }, operations);

it('item-create, item-read, item-delete with $full; $public is refused by permissions', async () => {
  const { id } = await hook([
    { key: 'made', type: 'item-create', options: { collection: 'notes', payload: { text: '{{ $trigger.body.text }}' }, permissions: '$full' }, resolve: 'read' },
    { key: 'read', type: 'item-read', options: { collection: 'notes', key: '{{ made }}', permissions: '$full' }, resolve: 'gone' },
    { key: 'gone', type: 'item-delete', options: { collection: 'notes', key: '{{ made }}', permissions: '$full' }, resolve: 'all' },
    { key: 'all', type: 'transform', options: { json: { read: '{{ read.text }}', deleted: '{{ gone }}' } } },
  ]);
  const data = (await t.request.post(`/flows/trigger/${id}`).send({ text: 'hello' }).expect(200)).body;
  expect(data.read).toBe('hello');
  expect(data.deleted).toHaveLength(1);
  expect((await t.request.get('/items/notes').set(auth())).body.data).toEqual([]);
  const pub = await hook([{ key: 'made', type: 'item-create', options: { collection: 'notes', payload: { text: 'x' }, permissions: '$public' } }]);
  const refused = await t.request.post(`/flows/trigger/${pub.id}`).send({}).expect(400);
  expect(refused.body.errors[0].message).toMatch(/permission|forbidden/i);
});

it('request reaches a local receiver allowed by OUTBOUND_ALLOWED_HOSTS and is refused for a private address', async () => {
  const { id } = await hook([{ key: 'call', type: 'request', options: { method: 'POST', url: `${receiver.url}/in`, headers: [{ header: 'x-flow', value: 'yes' }], body: { id: '{{ $trigger.body.id }}' } } }]);
  const data = (await t.request.post(`/flows/trigger/${id}`).send({ id: 42 }).expect(200)).body;
  expect(data).toEqual({ status: 200, data: 'ok' });
  expect(receiver.received.at(-1)).toMatchObject({ method: 'POST', path: '/in', body: { id: 42 }, headers: { 'x-flow': 'yes' } });
  const denied = await hook([{ key: 'call', type: 'request', options: { method: 'GET', url: 'http://10.1.2.3/secret' } }]);
  const refused = await t.request.post(`/flows/trigger/${denied.id}`).send({}).expect(400);
  expect(refused.body.errors[0].message).toMatch(/Refused to call 10\.1\.2\.3/);
});

it('trigger runs another flow per array entry (serial) or once (batch); json-web-token signs and verifies; notification writes a row', async () => {
  const child = await createFlow(t, token, { name: 'child', trigger: 'operation' }, [{ key: 'double', type: 'transform', options: { json: { n: '{{ $trigger.n }}', twice: '{{ $trigger.n }}{{ $trigger.n }}' } } }]);
  const me = (await t.request.get('/users/me').set(auth()).expect(200)).body.data.id;
  const { id } = await hook([
    { key: 'each', type: 'trigger', options: { flow: child.id, payload: '{{ $trigger.body.list }}', iterationMode: 'serial' }, resolve: 'batch' },
    { key: 'batch', type: 'trigger', options: { flow: child.id, payload: { n: 5 }, iterationMode: 'batch' }, resolve: 'sign' },
    { key: 'sign', type: 'json-web-token', options: { operation: 'sign', secret: 'flow-secret', payload: { sub: 'x' } }, resolve: 'verify' },
    { key: 'verify', type: 'json-web-token', options: { operation: 'verify', secret: 'flow-secret', token: '{{ sign }}' }, resolve: 'notify' },
    { key: 'notify', type: 'notification', options: { recipient: me, subject: 'Done', message: 'sub {{ verify.sub }}' }, resolve: 'out' },
    { key: 'out', type: 'transform', options: { json: { each: '{{ each }}', batch: '{{ batch }}', sub: '{{ verify.sub }}' } } },
  ]);
  const data = (await t.request.post(`/flows/trigger/${id}`).send({ list: [{ n: 1 }, { n: 2 }] }).expect(200)).body;
  expect(data).toEqual({ each: [{ n: 1, twice: '11' }, { n: 2, twice: '22' }], batch: { n: 5, twice: '55' }, sub: 'x' });
  const notes = (await t.request.get('/notifications?filter[subject][_eq]=Done').set(auth()).expect(200)).body.data;
  expect(notes).toEqual([expect.objectContaining({ recipient: me, message: 'sub x' })]);
  const bad = await hook([{ key: 'verify', type: 'json-web-token', options: { operation: 'verify', secret: 'other', token: 'a.b.c' } }]);
  await t.request.post(`/flows/trigger/${bad.id}`).send({}).expect(400);
});

it('rejects invalid flows and operations with 400 naming the field', async () => {
  const cron = await t.request.post('/flows').set(auth()).send({ name: 'x', status: 'active', trigger: 'schedule', options: { cron: 'every minute' } }).expect(400);
  expect(cron.body.errors[0].extensions).toMatchObject({ field: 'options.cron' });
  const status = await t.request.post('/flows').set(auth()).send({ name: 'x', status: 'on', trigger: 'webhook' }).expect(400);
  expect(status.body.errors[0].extensions).toMatchObject({ field: 'status', allowed: ['active', 'inactive'] });
  const trig = await t.request.post('/flows').set(auth()).send({ name: 'x', trigger: 'telepathy' }).expect(400);
  expect(trig.body.errors[0].extensions).toMatchObject({ field: 'trigger' });
  const scope = await t.request.post('/flows').set(auth()).send({ name: 'x', trigger: 'event', options: { type: 'filter', scope: ['items.sing'] } }).expect(400);
  expect(scope.body.errors[0].extensions).toMatchObject({ field: 'options.scope' });
  const flow = await createFlow(t, token, { name: 'valid', trigger: 'webhook', options: { cron: undefined } }, [{ key: 'a', type: 'log', options: { message: 'hi' } }]);
  const type = await t.request.post('/operations').set(auth()).send({ key: 'b', type: 'teleport', position_x: 1, position_y: 1, flow: flow.id }).expect(400);
  expect(type.body.errors[0].extensions).toMatchObject({ field: 'type' });
  const dup = await t.request.post('/operations').set(auth()).send({ key: 'a', type: 'log', position_x: 1, position_y: 1, flow: flow.id }).expect(400);
  expect(dup.body.errors[0].extensions).toMatchObject({ field: 'key' });
});

it('item-read, item-update and item-delete whose key renders empty act on no item; without a key option they act on the query', async () => {
  const kept = (await t.request.post('/items/notes').set(auth()).send([{ text: 'keep one' }, { text: 'keep two' }]).expect(200)).body.data.map((note: { id: number }) => note.id);
  const texts = async () => (await t.system.db.selectFrom('notes').select('text').where('id', 'in', kept).orderBy('id').execute()).map((row) => row.text);
  const { id } = await hook([
    { key: 'read', type: 'item-read', options: { collection: 'notes', key: '{{ $trigger.body.ids }}', permissions: '$full' }, resolve: 'update' },
    { key: 'update', type: 'item-update', options: { collection: 'notes', key: '{{ $trigger.body.ids }}', payload: { text: 'overwritten' }, permissions: '$full' }, resolve: 'gone' },
    { key: 'gone', type: 'item-delete', options: { collection: 'notes', key: '{{ $trigger.body.ids }}', permissions: '$full' }, resolve: 'all' },
    { key: 'all', type: 'transform', options: { json: { read: '{{ read }}', updated: '{{ update }}', deleted: '{{ gone }}' } } },
  ]);
  // No ids, an empty list, null, "": a key list that is empty, never "every item".
  for (const body of [{}, { ids: [] }, { ids: null }, { ids: '' }]) {
    expect((await t.request.post(`/flows/trigger/${id}`).send(body).expect(200)).body).toEqual({ read: [], updated: [], deleted: [] });
  }
  expect(await texts()).toEqual(['keep one', 'keep two']);
  // The same chain given one key acts on that item only.
  expect((await t.request.post(`/flows/trigger/${id}`).send({ ids: [kept[0]] }).expect(200)).body).toMatchObject({ updated: [kept[0]], deleted: [kept[0]] });
  expect(await texts()).toEqual(['keep two']);
  // An operation with no `key` option acts on its query, as in Directus.
  const byQuery = await hook([{ key: 'update', type: 'item-update', options: { collection: 'notes', query: { filter: { text: { _eq: 'keep two' } } }, payload: { text: 'updated by query' }, permissions: '$full' } }]);
  expect((await t.request.post(`/flows/trigger/${byQuery.id}`).send({}).expect(200)).body).toEqual([kept[1]]);
  expect(await texts()).toEqual(['updated by query']);
});

it("trigger with iterationMode parallel runs the entries at once: each child's request waits for the other's", async () => {
  // A barrier: it answers nobody until both children have called. Run one after the other, the first would
  // wait for a second call that never comes (and fail at the request's 10 s cap).
  const waiting: Array<() => void> = [];
  const barrier = createServer((req, res) => {
    waiting.push(() => res.end(JSON.stringify({ path: req.url })));
    if (waiting.length === 2) for (const answer of waiting.splice(0)) answer();
  });
  await new Promise<void>((resolve) => barrier.listen(0, '127.0.0.1', () => resolve()));
  try {
    const url = `http://127.0.0.1:${(barrier.address() as AddressInfo).port}`;
    const child = await createFlow(t, token, { name: 'meet', trigger: 'operation' }, [{ key: 'call', type: 'request', options: { method: 'GET', url: `${url}/{{ $trigger.n }}` } }]);
    const { id } = await hook([{ key: 'each', type: 'trigger', options: { flow: child.id, payload: '{{ $trigger.body.list }}', iterationMode: 'parallel' } }]);
    const data = (await t.request.post(`/flows/trigger/${id}`).send({ list: [{ n: 1 }, { n: 2 }] }).expect(200)).body;
    // Results in the entries' order, whichever answered first.
    expect(data).toEqual([{ status: 200, data: { path: '/1' } }, { status: 200, data: { path: '/2' } }]);
  } finally {
    barrier.closeAllConnections();
    await new Promise((resolve) => barrier.close(resolve));
  }
});

it('request refuses an answer over 1 MB, naming the cap', async () => {
  const big = createServer((_req, res) => res.end('x'.repeat(1_100_000)));
  await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', () => resolve()));
  try {
    const { id } = await hook([{ key: 'call', type: 'request', options: { method: 'GET', url: `http://127.0.0.1:${(big.address() as AddressInfo).port}/big` } }]);
    const refused = await t.request.post(`/flows/trigger/${id}`).send({}).expect(400);
    expect(refused.body.errors[0].message).toContain('The response is larger than 1048576 bytes.');
  } finally {
    await new Promise((resolve) => big.close(resolve));
  }
});

it('request gives up on a receiver that never answers after 10 s, naming the cap', { timeout: 90_000 }, async () => {
  const silent = createServer(() => {
    // Takes the request and never answers.
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
  try {
    const { id } = await hook([{ key: 'call', type: 'request', options: { method: 'GET', url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/slow` } }]);
    const started = performance.now();
    const refused = await t.request.post(`/flows/trigger/${id}`).send({}).expect(400);
    expect(refused.body.errors[0].message).toContain('Timed out after 10000 ms.');
    // The cap, not some other limit, ended it: never before 10 s.
    expect(performance.now() - started).toBeGreaterThanOrEqual(10_000);
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});
