import { createClient, type Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RunningServer } from '../../../server/http-server.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { openSocket, type TestSocket } from './socket-client.ts';
import { listenTwice, type TwoServers } from './two-servers.ts';

let t: TestApp;
let first: RunningServer;
let second: RunningServer;
let servers: TwoServers;
let admin: string;
let reader: string;
let readerCookie: string;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const clients: Client[] = [];
const sockets: TestSocket[] = [];

type Payload = { key: string; event: string; data: Record<string, unknown> | null };

/** A graphql-ws client on one server; headers (a cookie, an Origin) go on the upgrade request. */
function client(server: RunningServer, options: { token?: string; headers?: Record<string, string> } = {}): Client {
  const headers = options.headers ?? {};
  class HeaderSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  const created = createClient({
    url: `ws://127.0.0.1:${server.port}/graphql`,
    webSocketImpl: HeaderSocket,
    connectionParams: options.token ? { access_token: options.token } : undefined,
    retryAttempts: 0,
    lazy: false,
    // A refused connection reaches the subscriptions' error sinks, which the tests read; no console noise.
    onNonLazyError: () => undefined,
  });
  clients.push(created);
  return created;
}

/** Subscribes and collects payloads (and errors) as they arrive. */
function subscribe(on: Client, query: string) {
  const received: Payload[] = [];
  const errors: unknown[] = [];
  const waiters = new Set<() => void>();
  const wake = () => [...waiters].forEach((fn) => fn());
  const stop = on.subscribe<Record<string, Payload>>(
    { query },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        if (result.data) received.push(Object.values(result.data)[0]!);
        wake();
      },
      error: (error) => {
        errors.push(error);
        wake();
      },
      complete: () => undefined,
    },
  );
  const until = (check: () => boolean, timeoutMs = 5_000) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => reject(new Error(`timed out; received ${JSON.stringify(received)} errors ${JSON.stringify(errors)}`)), timeoutMs);
      const fn = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(fn);
        resolve();
      };
      waiters.add(fn);
    });
  return { received, errors, stop, until };
}

/** Waits until `server`'s hub holds `count` subscriptions on articles (events are only sent to registered ones). */
async function subscribed(server: RunningServer, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (server.realtime!.hub.subscribers('articles') < count) {
    if (Date.now() > deadline) throw new Error(`only ${server.realtime!.hub.subscribers('articles')} of ${count} subscriptions registered`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', REDIS_URL: 'redis://127.0.0.1:6379', WEBSOCKETS_REST_AUTH: 'public', WEBSOCKETS_MAX_SUBSCRIPTIONS: '3' });
  servers = await listenTwice(t);
  ({ first, second } = servers);
  admin = await t.login();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }, { field: 'secret', type: 'string' }] }).expect(200);
  const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Reader', app_access: false }).expect(200)).body.data.id;
  await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'articles', action: 'read', fields: ['id', 'title', 'status'], permissions: { status: { _eq: 'published' } } }).expect(200);
  await t.request.post('/users').set(auth(admin)).send({ email: 'reader@example.com', password: 'reader-password-1', role, status: 'active' }).expect(200);
  reader = await t.login('reader@example.com', 'reader-password-1');
  const session = await t.request.post('/auth/login').send({ email: 'reader@example.com', password: 'reader-password-1', mode: 'session' }).expect(200);
  readerCookie = (session.headers['set-cookie'] as unknown as string[]).map((cookie) => cookie.split(';')[0]).join('; ');
  expect(readerCookie).toContain('tessera_session_token=');
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.dispose();
  for (const s of sockets.splice(0)) await s.close().catch(() => undefined);
  await t.context.events.idle();
  // Closed sockets leave the hubs (what the next test counts on).
  for (const server of [first, second]) {
    const deadline = Date.now() + 5_000;
    while (server.realtime!.hub.subscribers('articles') > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.realtime!.hub.subscribers('articles')).toBe(0);
  }
});

afterAll(async () => {
  await t.context.events.idle();
  await servers?.close();
  await t?.close();
});

describe('GraphQL subscriptions over graphql-ws on /graphql', () => {
  it('delivers <collection>_mutated {key, event, data} for writes made on another instance', async () => {
    const on = client(second, { token: admin });
    const all = subscribe(on, 'subscription { articles_mutated { key event data { id title secret } } }');
    await subscribed(second, 1);
    const id = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Hello', status: 'draft', secret: 's' }).expect(200)).body.data.id;
    await all.until(() => all.received.length >= 1);
    expect(all.received[0]).toEqual({ key: String(id), event: 'create', data: { id: String(id), title: 'Hello', secret: 's' } });
    await t.request.patch(`/items/articles/${id}`).set(auth(admin)).send({ title: 'Hello again' }).expect(200);
    await t.request.delete(`/items/articles/${id}`).set(auth(admin)).expect(204);
    await all.until(() => all.received.length >= 3);
    expect(all.received.slice(1)).toEqual([
      { key: String(id), event: 'update', data: { id: String(id), title: 'Hello again', secret: 's' } },
      { key: String(id), event: 'delete', data: null },
    ]);
  });

  it("shapes events by the subscriber's permissions: its fields, its rule, leaving the rule arrives as delete", async () => {
    const on = client(first, { token: reader });
    const refused = subscribe(on, 'subscription { articles_mutated { key data { secret } } }');
    await refused.until(() => refused.errors.length > 0);
    expect(JSON.stringify(refused.errors)).toContain('secret');

    const mine = subscribe(on, 'subscription { articles_mutated { key event data { title status } } }');
    const deletes = subscribe(on, 'subscription { articles_mutated(event: delete) { key event } }');
    await subscribed(first, 2);
    const draft = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Draft', status: 'draft', secret: 'x' }).expect(200)).body.data.id;
    const published = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Out', status: 'published', secret: 'y' }).expect(200)).body.data.id;
    await mine.until(() => mine.received.length >= 1);
    await t.request.patch(`/items/articles/${published}`).set(auth(admin)).send({ status: 'archived' }).expect(200);
    await mine.until(() => mine.received.length >= 2);
    await deletes.until(() => deletes.received.length >= 1);
    expect(mine.received).toEqual([
      { key: String(published), event: 'create', data: { title: 'Out', status: 'published' } },
      { key: String(published), event: 'delete', data: null },
    ]);
    expect(deletes.received).toEqual([{ key: String(published), event: 'delete' }]);
    expect(JSON.stringify(mine.received)).not.toContain('"Draft"');
    expect(mine.received.map((payload) => payload.key)).not.toContain(String(draft));
    expect(JSON.stringify(mine.received)).not.toContain('"y"');
  });

  it('limits subscriptions per connection and answers queries on the same socket', async () => {
    const on = client(first, { token: admin });
    const subs = [1, 2, 3, 4].map(() => subscribe(on, 'subscription { articles_mutated { key } }'));
    await subs[3]!.until(() => subs[3]!.errors.length > 0);
    expect(JSON.stringify(subs[3]!.errors)).toContain('WEBSOCKETS_MAX_SUBSCRIPTIONS');
    const result = await new Promise<unknown>((resolve, reject) => {
      let data: unknown;
      on.subscribe({ query: '{ articles(limit: 1) { id } }' }, { next: (value) => (data = value), error: reject, complete: () => resolve(data) });
    });
    expect(result).toEqual({ data: { articles: expect.any(Array) } });
  });

  it('gives an unauthenticated socket the public schema, and refuses a bad token in connection_init', async () => {
    const anonymous = subscribe(client(first), 'subscription { articles_mutated { key } }');
    await anonymous.until(() => anonymous.errors.length > 0);
    expect(JSON.stringify(anonymous.errors)).toMatch(/subscription/i);
    const bad = subscribe(client(first, { token: 'not-a-token' }), 'subscription { articles_mutated { key } }');
    await bad.until(() => bad.errors.length > 0);
    expect((bad.errors[0] as { code: number }).code).toBe(4403);
  });
});

describe('session cookie on the WebSocket upgrade', () => {
  it('signs a /websocket connection in from the cookie, with no auth message', async () => {
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Public news', status: 'published' }).expect(200);
    const s = await openSocket(`ws://127.0.0.1:${first.port}/websocket`, { headers: { Cookie: readerCookie } });
    sockets.push(s);
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['title'] }, uid: 'a' });
    const init = await s.next((m) => m.type === 'subscription' && m.event === 'init');
    expect(init.data).toEqual([{ title: 'Public news' }]);
    // The public role may not read articles: the same subscribe without the cookie is refused.
    const anonymous = await openSocket(`ws://127.0.0.1:${first.port}/websocket`);
    sockets.push(anonymous);
    anonymous.send({ type: 'subscribe', collection: 'articles', query: { fields: ['title'] }, uid: 'a' });
    expect((await anonymous.next((m) => m.type === 'subscribe' || m.status === 'error')).error.code).toBe('FORBIDDEN');
  });

  it('ignores the cookie when the upgrade comes from a page of another site', async () => {
    const s = await openSocket(`ws://127.0.0.1:${first.port}/websocket`, { headers: { Cookie: readerCookie, Origin: 'https://evil.example' } });
    sockets.push(s);
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['title'] }, uid: 'a' });
    expect((await s.next((m) => m.status === 'error')).error.code).toBe('FORBIDDEN');
  });

  it('signs a graphql-ws connection in from the cookie', async () => {
    const on = client(first, { headers: { Cookie: readerCookie } });
    const mine = subscribe(on, 'subscription { articles_mutated(event: create) { key data { title } } }');
    await subscribed(first, 1);
    const id = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'For cookies', status: 'published' }).expect(200)).body.data.id;
    await mine.until(() => mine.received.length >= 1);
    expect(mine.received).toEqual([{ key: String(id), data: { title: 'For cookies' } }]);
    expect(mine.errors).toEqual([]);
  });
});
