import { createDirectus, realtime, staticToken } from '@directus/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { openSocket } from './socket-client.ts';

// Handshake mode (the default) and a short token lifetime; no Redis: one instance alone. The fast heartbeat has a
// server of its own: at 1.5 s a busy machine can miss a pong and drop the other tests' connections.
let t: TestApp;
let server: RunningServer;
let stopped = false;
let admin: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', ACCESS_TOKEN_TTL: '10s' });
  server = await listen(t.context);
  admin = await t.login();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }] }).expect(200);
});

afterAll(async () => {
  await t.context.events.idle();
  if (!stopped) await server?.close();
  await t?.close();
});

it('works with @directus/sdk realtime: handshake auth, subscribe, init and create', async () => {
  // A user's static token does not expire: a slow run on a loaded machine cannot outlive it (the short
  // ACCESS_TOKEN_TTL of this file is for the expiry test).
  const staticAdminToken = 'sdk-handshake-static-token-0123456789';
  await t.request.patch('/users/me').set(auth(admin)).send({ token: staticAdminToken }).expect(200);
  const client = createDirectus(`http://127.0.0.1:${server.port}`, { globals: { WebSocket: WebSocket as never } })
    .with(staticToken(staticAdminToken))
    .with(realtime({ reconnect: false }));
  await client.connect();
  try {
    const { subscription, unsubscribe } = await client.subscribe('articles', { query: { fields: ['id', 'title'], filter: { title: { _neq: 'skip' } } } });
    const iterator = subscription[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'subscription', event: 'init', data: [] });
    // The SDK's iterator listens only while a next() is pending: asked before the writes, so an event that
    // arrives ahead of the write's HTTP answer (a busy machine) is not dropped.
    const created = iterator.next();
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'skip' }).expect(200);
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Live' }).expect(200);
    expect((await created).value).toMatchObject({ type: 'subscription', event: 'create', data: [{ id: 2, title: 'Live' }] });
    unsubscribe();
  } finally {
    client.disconnect();
  }
});

it('handles a connection\'s messages in order: a subscribe sent right behind its auth waits for the auth', async () => {
  // @directus/sdk sends its subscribe as soon as the socket opens; the auth before it takes a database read.
  const token = await t.login();
  const s = await openSocket(`ws://127.0.0.1:${server.port}/websocket`);
  s.send({ type: 'auth', access_token: token });
  s.send({ type: 'subscribe', collection: 'articles', uid: 'right-behind', query: { fields: ['id'] } });
  expect(await s.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  expect(await s.next((m) => m.type === 'subscription')).toMatchObject({ event: 'init', uid: 'right-behind' });
  await s.close();
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
  const signIn = (await t.request.post('/auth/login').send(TEST_ADMIN).expect(200)).body.data as { access_token: string; refresh_token: string };
  lapsing.send({ type: 'auth', access_token: signIn.access_token });
  renewed.send({ type: 'auth', access_token: signIn.access_token });
  expect(await lapsing.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  expect(await renewed.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  // A refresh (no password hashing) keeps the renewal quick on a loaded machine: well before the first token lapses.
  const refreshed = (await t.request.post('/auth/refresh').send({ refresh_token: signIn.refresh_token, mode: 'json' }).expect(200)).body.data.access_token as string;
  renewed.send({ type: 'auth', access_token: refreshed });
  expect(await renewed.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  expect(await lapsing.next((m) => m.type === 'auth', 15_000)).toMatchObject({ status: 'error', error: { code: 'TOKEN_EXPIRED' } });
  expect((await lapsing.closed).code).toBe(1008);
  renewed.send({ type: 'ping' });
  expect(await renewed.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
  await renewed.close();
});

it('pings every heartbeat period and drops a client that never answers', async () => {
  const fast = await createTestApp({ HOST: '127.0.0.1', PORT: '0', WEBSOCKETS_HEARTBEAT_PERIOD: '1.5' });
  const fastServer = await listen(fast.context);
  try {
    const token = await fast.login();
    const s = await openSocket(`ws://127.0.0.1:${fastServer.port}/websocket`, { answerPings: false });
    s.send({ type: 'auth', access_token: token });
    await s.next((m) => m.type === 'auth');
    expect(await s.next((m) => m.type === 'ping', 3_000)).toEqual({ type: 'ping' });
    // No pong: the next period finds the connection silent and terminates it.
    expect((await s.closed).code).toBe(1006);
  } finally {
    await fastServer.close();
    await fast.close();
  }
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
