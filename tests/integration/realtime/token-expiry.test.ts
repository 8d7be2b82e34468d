import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { openSocket, type TestSocket } from './socket-client.ts';

/**
 * What a socket does when its token runs out (docs/realtime.md): in public mode it carries on as the public
 * role, and graphql-ws closes with 4403. Tokens here live 4 seconds; the tests wait for the server to say so.
 */
describe('realtime token expiry', () => {
  let t: TestApp;
  let server: RunningServer;
  const sockets: TestSocket[] = [];
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', WEBSOCKETS_REST_AUTH: 'public', ACCESS_TOKEN_TTL: '4s' });
    server = await listen(t.context);
    // A token per request: each lives 4 seconds.
    await t.request.post('/collections').set(auth(await t.login())).send({ collection: 'posts', fields: [{ field: 'title', type: 'string' }, { field: 'public', type: 'boolean' }] }).expect(200);
    // The public role reads public posts only.
    await t.request.post('/permissions').set(auth(await t.login())).send({ role: null, collection: 'posts', action: 'read', fields: '*', permissions: { public: { _eq: true } } }).expect(200);
    await t.request.post('/items/posts').set(auth(await t.login())).send([{ title: 'open', public: true }, { title: 'closed', public: false }]).expect(200);
  });
  afterAll(async () => {
    for (const s of sockets) await s.close().catch(() => undefined);
    await server.close();
    await t.close();
  });

  async function socket(): Promise<TestSocket> {
    const s = await openSocket(`ws://127.0.0.1:${server.port}/websocket`);
    sockets.push(s);
    return s;
  }

  it('in public mode falls back to the public role when the token expires, and says so', async () => {
    const s = await socket();
    s.send({ type: 'auth', access_token: await t.login() });
    expect(await s.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
    s.send({ type: 'items', collection: 'posts', action: 'read', query: { fields: ['title'], sort: ['id'] }, uid: 'before' });
    expect((await s.next((m) => m.uid === 'before')).data).toEqual([{ title: 'open' }, { title: 'closed' }]);
    expect(await s.next((m) => m.type === 'auth', 15_000)).toEqual({ type: 'auth', status: 'error', error: { code: 'TOKEN_EXPIRED', message: 'Token expired.' } });
    // Still open, now as the public role.
    s.send({ type: 'items', collection: 'posts', action: 'read', query: { fields: ['title'], sort: ['id'] }, uid: 'after' });
    expect((await s.next((m) => m.uid === 'after')).data).toEqual([{ title: 'open' }]);
  });

  it('unsubscribe without a uid ends every subscription of the connection', async () => {
    const s = await socket();
    for (const uid of ['x', 'y']) {
      s.send({ type: 'subscribe', collection: 'posts', query: { fields: ['title'] }, uid });
      expect((await s.next((m) => m.uid === uid)).event).toBe('init');
    }
    s.send({ type: 'unsubscribe' });
    expect(await s.next((m) => m.type === 'subscription' && m.event === 'unsubscribe')).toEqual({ type: 'subscription', event: 'unsubscribe' });
    // The sentinel: a subscription made afterwards gets the change that x and y must not.
    s.send({ type: 'subscribe', collection: 'posts', query: { fields: ['title'] }, uid: 'z' });
    expect((await s.next((m) => m.uid === 'z')).event).toBe('init');
    await t.request.post('/items/posts').set(auth(await t.login())).send({ title: 'later', public: true }).expect(200);
    expect(await s.next((m) => m.uid === 'z')).toEqual({ type: 'subscription', event: 'create', uid: 'z', data: [{ title: 'later' }] });
    await s.nothing((m) => m.uid === 'x' || m.uid === 'y', () => server.realtime!.hub.idle());
  });

  it('graphql-ws closes the connection with 4403 when its token expires', async () => {
    const closed = new Promise<number>((resolve) => {
      const client = createClient({
        url: `ws://127.0.0.1:${server.port}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: async () => ({ access_token: await t.login() }),
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      client.subscribe({ query: 'subscription { posts_mutated { key } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    });
    expect(await closed).toBe(4403);
  });
});
