import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { openSocket, upgradeStatus } from './socket-client.ts';

/** WEBSOCKETS_REST_AUTH=strict (docs/realtime.md): the token comes with the upgrade, or there is no socket (issue 37 item 3). */
describe('realtime with WEBSOCKETS_REST_AUTH=strict', () => {
  let t: TestApp;
  let server: RunningServer;
  let admin: string;
  const url = (query = '') => `ws://127.0.0.1:${server.port}/websocket${query}`;

  beforeAll(async () => {
    t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', WEBSOCKETS_REST_AUTH: 'strict' });
    server = await listen(t.context);
    admin = await t.login();
    await t.request.post('/collections').set({ Authorization: `Bearer ${admin}` }).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }] }).expect(200);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('refuses an upgrade without a token, or with a bad one, with 401', async () => {
    expect(await upgradeStatus(url())).toBe(401);
    expect(await upgradeStatus(url('?access_token=not-a-token'))).toBe(401);
    expect(await upgradeStatus(url(), { Authorization: 'Bearer not-a-token' })).toBe(401);
  });

  it('opens with the token on the upgrade and subscribes without an auth message', async () => {
    const s = await openSocket(url(`?access_token=${admin}`));
    try {
      s.send({ type: 'subscribe', collection: 'notes', uid: 'n' });
      expect(await s.next((m) => m.uid === 'n')).toMatchObject({ type: 'subscription', event: 'init', uid: 'n', data: [] });
      await t.request.post('/items/notes').set({ Authorization: `Bearer ${admin}` }).send({ text: 'hello' }).expect(200);
      expect(await s.next((m) => m.uid === 'n')).toMatchObject({ event: 'create', data: [{ text: 'hello' }] });
    } finally {
      await s.close();
    }
  });
});
