import { afterAll, beforeAll, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../server/errors.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let auth: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  auth = { authorization: `Bearer ${await t.login()}` };
  await t.request
    .post('/collections')
    .set(auth)
    .send({ collection: 'tickets', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, { field: 'code', type: 'string' }, { field: 'priority', type: 'integer' }] })
    .expect(200);
});
afterAll(() => t?.close());

it('the built-in features register their system-collection rules in the app context', () => {
  expect(t.context.rules.collections()).toEqual(['tessera_flows', 'tessera_notifications', 'tessera_operations', 'tessera_panels', 'tessera_settings', 'tessera_shares', 'tessera_translations', 'tessera_users', 'tessera_webhooks']);
});

it('a rule registered for a user collection applies to REST writes, in order, and goes when removed', async () => {
  const offDefault = t.context.rules.register('tickets', (payload, { mode }) => (mode === 'create' && payload.priority === undefined ? { ...payload, priority: 3 } : payload));
  const offCode = t.context.rules.register('tickets', (payload) => {
    if (payload.code !== undefined && !/^[A-Z]{3}-\d+$/.test(String(payload.code))) throw new InvalidPayloadError('"code" must look like ABC-123.', { field: 'code' });
    return { ...payload, ...(payload.code !== undefined ? { code: String(payload.code) } : {}) };
  });
  try {
    const created = (await t.request.post('/items/tickets').set(auth).send({ code: 'OPS-1' }).expect(200)).body.data;
    expect(created).toMatchObject({ code: 'OPS-1', priority: 3 });
    const refused = await t.request.patch(`/items/tickets/${created.id}`).set(auth).send({ code: 'nope' }).expect(400);
    expect(refused.body.errors[0]).toMatchObject({ message: '"code" must look like ABC-123.', extensions: { code: 'INVALID_PAYLOAD', field: 'code' } });
    // The refused update wrote nothing.
    expect((await t.request.get(`/items/tickets/${created.id}`).set(auth).expect(200)).body.data.code).toBe('OPS-1');
  } finally {
    offDefault();
    offCode();
  }
  expect(t.context.rules.collections()).not.toContain('tickets');
  const plain = (await t.request.post('/items/tickets').set(auth).send({ code: 'anything' }).expect(200)).body.data;
  expect(plain).toMatchObject({ code: 'anything', priority: null });
});

it('a system collection keeps its rule on every route: a notification status outside inbox/archived is refused', async () => {
  const me = (await t.request.get('/users/me').set(auth).expect(200)).body.data.id;
  const refused = await t.request.post('/notifications').set(auth).send({ recipient: me, subject: 'Hi', status: 'deleted' }).expect(400);
  expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'status' });
});
