import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { eventually } from '../../helpers/eventually.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createFlow } from '../flows/flow-fixture.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

// Issue 29, item 12: mention notifications and comments were inserted with raw SQL, so no webhook, flow or
// event rule on tessera_notifications or tessera_activity ever saw them.

let t: TestApp;
let admin: string;
let receiver: Receiver;
let worker: JobWorker;
let articleId: number;
const editor = { id: '', token: '' };
const reader = { id: '', token: '' };
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  admin = await t.login();
  receiver = await startReceiver();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }] }).expect(200);
  const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
  await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'articles', action: 'read', fields: '*' }).expect(200);
  articleId = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Hello' }).expect(200)).body.data.id;
  for (const [name, user] of [['editor', editor], ['reader', reader]] as const) {
    user.id = (await t.request.post('/users').set(auth(admin)).send({ email: `${name}@example.com`, password: `${name}-password-1`, role, status: 'active', first_name: name }).expect(200)).body.data.id;
    user.token = await t.login(`${name}@example.com`, `${name}-password-1`);
  }
  worker = await startWorker(t.context, { pollIntervalMs: 100 });
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await t?.close();
});

it('a mention notification reaches the webhooks and action flows on tessera_notifications, and the comment those on tessera_activity', async () => {
  const hook = (path: string, collection: string, actions: string[]) =>
    t.request.post('/webhooks').set(auth(admin)).send({ name: path, method: 'POST', status: 'active', data: true, url: `${receiver.url}${path}`, actions, collections: [collection] }).expect(200);
  await hook('/notifications', 'tessera_notifications', ['create']);
  await hook('/activity', 'tessera_activity', ['create', 'update', 'delete']);
  const { id: flow } = await createFlow(t, admin, { name: 'on notification', trigger: 'event', accountability: 'all', options: { type: 'action', scope: ['items.create'], collections: ['tessera_notifications'] } }, [
    { key: 'note', type: 'log', options: { message: 'notified {{ $trigger.payload.recipient }}' } },
  ]);

  const comment = `Have a look, @${reader.id}`;
  const created = (await t.request.post('/activity/comment').set(auth(editor.token)).send({ collection: 'articles', item: articleId, comment }).expect(200)).body.data;

  const [notified] = await receiver.waitFor(1, '/notifications');
  expect(notified!.body).toMatchObject({
    event: 'items.create',
    collection: 'tessera_notifications',
    payload: { recipient: reader.id, sender: editor.id, subject: 'editor mentioned you in a comment', message: 'Have a look, @reader', collection: 'articles', item: String(articleId) },
    accountability: { user: editor.id },
  });
  const [commented] = await receiver.waitFor(1, '/activity');
  expect(commented!.body).toMatchObject({ event: 'items.create', collection: 'tessera_activity', key: created.id, payload: { action: 'comment', comment, user: editor.id }, accountability: { user: editor.id } });

  const runs = await eventually(async () => {
    const { body } = await t.request.get(`/flows/${flow}/runs`).set(auth(admin)).expect(200);
    expect(body.data).toHaveLength(1);
    return body.data;
  });
  expect(runs[0]).toMatchObject({ status: 'resolved', trigger: { event: 'tessera_notifications.items.create', collection: 'tessera_notifications', payload: { recipient: reader.id } } });

  // Editing and deleting the comment are announced too.
  await t.request.patch(`/activity/comment/${created.id}`).set(auth(editor.token)).send({ comment: 'Never mind' }).expect(200);
  await t.request.delete(`/activity/comment/${created.id}`).set(auth(editor.token)).expect(204);
  // Deliveries are jobs worked on side by side, so the update's and the delete's may arrive in either order.
  const calls = await receiver.waitFor(3, '/activity');
  expect(calls.map((call) => call.body.event).sort()).toEqual(['items.create', 'items.delete', 'items.update']);
});

it('the rules on notifications apply to mention notifications: a filter flow that refuses them refuses the comment, and nothing is written', async () => {
  const { id: flow } = await createFlow(t, admin, { name: 'no mentions', trigger: 'event', options: { type: 'filter', scope: ['items.create'], collections: ['tessera_notifications'] } }, [
    { key: 'never', type: 'condition', options: { filter: { $trigger: { payload: { subject: { _ncontains: 'mentioned you' } } } } } },
  ]);
  await eventually(async () => expect(t.context.events.hasFilters(['tessera_notifications.items.create'])).toBe(true));
  const refused = await t.request.post('/activity/comment').set(auth(editor.token)).send({ collection: 'articles', item: articleId, comment: `Refused, @${reader.id}` }).expect(400);
  expect(refused.body.errors[0].message).toBe('The condition was not met.');
  const stored = await t.system.db.selectFrom('tessera_activity').select('id').where('comment', '=', `Refused, @${reader.id}`).execute();
  expect(stored).toEqual([]);
  await t.request.patch(`/flows/${flow}`).set(auth(admin)).send({ status: 'inactive' }).expect(200);
});
