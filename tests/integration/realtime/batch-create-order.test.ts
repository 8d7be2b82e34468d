import { afterAll, beforeAll, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { openSocket } from './socket-client.ts';

/** A batch create reaches a subscriber as one create event per item, in the batch's order (Directus's no-relation suite, issue 31). */
let t: TestApp;
let server: RunningServer;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ HOST: '127.0.0.1', PORT: '0' });
  server = await listen(t.context);
  admin = await t.login();
  await t.request.post('/collections').set({ Authorization: `Bearer ${admin}` }).send({ collection: 'artists', fields: [{ field: 'name', type: 'string' }] }).expect(200);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

it('sends the create events of a batch in the order of the batch', async () => {
  const s = await openSocket(`ws://127.0.0.1:${server.port}/websocket`);
  try {
    s.send({ type: 'auth', access_token: admin });
    await s.next((m) => m.type === 'auth');
    s.send({ type: 'subscribe', collection: 'artists', query: { fields: ['name'] }, uid: 'a' });
    expect((await s.next((m) => m.uid === 'a')).event).toBe('init');
    const names = Array.from({ length: 12 }, (_, index) => `artist ${index + 1}`);
    await t.request.post('/items/artists').set({ Authorization: `Bearer ${admin}` }).send(names.map((name) => ({ name }))).expect(200);
    const received: string[] = [];
    for (const _ of names) received.push((await s.next((m) => m.uid === 'a')).data[0].name);
    expect(received).toEqual(names);
  } finally {
    await s.close();
  }
});
