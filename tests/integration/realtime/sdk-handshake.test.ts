import { createDirectus, realtime, staticToken } from '@directus/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { events } from '../../../server/events/event-bus.ts';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { openSocket } from './socket-client.ts';

// Handshake mode (the default), a short token lifetime and a fast heartbeat; no Redis: one instance alone.
let t: TestApp;
let server: RunningServer;
let stopped = false;
let admin: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', ACCESS_TOKEN_TTL: '3s', WEBSOCKETS_HEARTBEAT_PERIOD: '0.3' });
  server = await listen(t.context);
  admin = await t.login();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }] }).expect(200);
});

afterAll(async () => {
  await events.idle();
  if (!stopped) await server?.close();
  await t?.close();
});

it('works with @directus/sdk realtime: handshake auth, subscribe, init and create', async () => {
  const client = createDirectus(`http://127.0.0.1:${server.port}`, { globals: { WebSocket: WebSocket as never } })
    .with(staticToken(await t.login()))
    .with(realtime({ reconnect: false }));
  await client.connect();
  try {
    const { subscription, unsubscribe } = await client.subscribe('articles', { query: { fields: ['id', 'title'], filter: { title: { _neq: 'skip' } } } });
    const iterator = subscription[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'subscription', event: 'init', data: [] });
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'skip' }).expect(200);
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Live' }).expect(200);
    expect((await iterator.next()).value).toMatchObject({ type: 'subscription', event: 'create', data: [{ id: 2, title: 'Live' }] });
    unsubscribe();
  } finally {
    client.disconnect();
  }
});

it('requires auth as the first message and refuses other messages before it', async () => {
  const s = await openSocket(`ws://127.0.0.1:${server.port}/websocket`);
  s.send({ type: 'subscribe', collection: 'articles', uid: 'x' });
  expect(await s.next((m) => m.type === 'auth')).toMatchObject({ status: 'error', error: { code: 'AUTH_FAILED' } });
  expect((await s.closed).code).toBe(1008);
});

it('closes an authenticated connection when its token expires, unless it re-authenticated in time', async () => {
  const lapsing = await openSocket(`ws://127.0.0.1:${server.port}/websocket`);
  const renewed = await openSocket(`ws://127.0.0.1:${server.port}/websocket`);
  lapsing.send({ type: 'auth', access_token: await t.login() });
  renewed.send({ type: 'auth', access_token: await t.login() });
  expect(await lapsing.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  expect(await renewed.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  renewed.send({ type: 'auth', access_token: await t.login() });
  expect(await renewed.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  expect(await lapsing.next((m) => m.type === 'auth', 4_000)).toMatchObject({ status: 'error', error: { code: 'TOKEN_EXPIRED' } });
  expect((await lapsing.closed).code).toBe(1008);
  renewed.send({ type: 'ping' });
  expect(await renewed.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
  await renewed.close();
});

it('pings every heartbeat period and drops a client that never answers', async () => {
  const token = await t.login();
  const s = await openSocket(`ws://127.0.0.1:${server.port}/websocket`, { answerPings: false });
  s.send({ type: 'auth', access_token: token });
  await s.next((m) => m.type === 'auth');
  expect(await s.next((m) => m.type === 'ping', 1_000)).toEqual({ type: 'ping' });
  // No pong: the next period finds the connection silent and terminates it.
  expect((await s.closed).code).toBe(1006);
});

it('refuses upgrades to other paths', async () => {
  await expect(openSocket(`ws://127.0.0.1:${server.port}/other`)).rejects.toThrow(/404/);
});

it('closes open sockets (1001) when the server shuts down', async () => {
  const token = await t.login();
  const s = await openSocket(`ws://127.0.0.1:${server.port}/websocket`);
  s.send({ type: 'auth', access_token: token });
  await s.next((m) => m.type === 'auth');
  stopped = true;
  await server.close();
  expect((await s.closed).code).toBe(1001);
});
