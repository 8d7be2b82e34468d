import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/http-server.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { openSocket, type TestSocket } from './socket-client.ts';
import { listenTwice, type TwoServers } from './two-servers.ts';

let t: TestApp;
let first: RunningServer;
let second: RunningServer;
let servers: TwoServers;
let admin: string;
let reader: string;
const sockets: TestSocket[] = [];
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const url = (server: RunningServer, query = '') => `ws://127.0.0.1:${server.port}/websocket${query}`;

async function socket(server: RunningServer, token?: string): Promise<TestSocket> {
  const s = await openSocket(url(server));
  sockets.push(s);
  if (token) {
    s.send({ type: 'auth', access_token: token });
    expect(await s.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  }
  return s;
}

beforeAll(async () => {
  t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', REDIS_URL: 'redis://127.0.0.1:6379', WEBSOCKETS_REST_AUTH: 'public', WEBSOCKETS_MAX_CONNECTIONS_PER_USER: '5', WEBSOCKETS_MAX_SUBSCRIPTIONS: '3', WEBSOCKETS_MAX_MESSAGE_SIZE: '4096' });
  servers = await listenTwice(t);
  ({ first, second } = servers);
  admin = await t.login();
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }, { field: 'secret', type: 'string' }] }).expect(200);
  await t.request.post('/collections').set(auth(admin)).send({ collection: 'notes', fields: [{ field: 'text', type: 'string' }] }).expect(200);
  const role = (await t.request.post('/roles').set(auth(admin)).send({ name: 'Reader' }).expect(200)).body.data.id;
  await t.request.post('/permissions').set(auth(admin)).send({ role, collection: 'articles', action: 'read', fields: ['id', 'title', 'status'], permissions: { status: { _eq: 'published' } } }).expect(200);
  await t.request.post('/users').set(auth(admin)).send({ email: 'reader@example.com', password: 'reader-password-1', role, status: 'active' }).expect(200);
  reader = await t.login('reader@example.com', 'reader-password-1');
  await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Old news', status: 'published', secret: 's0' }).expect(200);
  await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Hidden', status: 'draft', secret: 's1' }).expect(200);
});

afterEach(async () => {
  for (const s of sockets.splice(0)) await s.close().catch(() => undefined);
  await t.context.events.idle();
});

afterAll(async () => {
  for (const s of sockets) await s.close().catch(() => undefined);
  await t.context.events.idle();
  await servers?.close();
  await t?.close();
});

describe('subscriptions', () => {
  it('sends init then create, update and delete, as the subscriber may read them', async () => {
    const s = await socket(first, reader);
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['*'], sort: ['id'] }, uid: 'a' });
    const init = await s.next((m) => m.type === 'subscription' && m.uid === 'a');
    expect(init).toEqual({ type: 'subscription', event: 'init', uid: 'a', data: [{ id: 1, title: 'Old news', status: 'published' }] });

    const id = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Fresh', status: 'published', secret: 'x' }).expect(200)).body.data.id;
    expect(await s.next((m) => m.uid === 'a')).toEqual({ type: 'subscription', event: 'create', uid: 'a', data: [{ id, title: 'Fresh', status: 'published' }] });

    // A draft the reader may not see: nothing arrives. The update after it, which arrives, is the sentinel:
    // Redis hands the hub the two changes in order, so once the update is here the draft's delivery has begun.
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Draft', status: 'draft' }).expect(200);
    await t.request.patch(`/items/articles/${id}`).set(auth(admin)).send({ title: 'Fresher' }).expect(200);
    expect(await s.next((m) => m.uid === 'a')).toEqual({ type: 'subscription', event: 'update', uid: 'a', data: [{ id, title: 'Fresher', status: 'published' }] });
    await s.nothing((m) => m.uid === 'a' && m.event === 'create', () => first.realtime!.hub.idle());

    // Moving out of the reader's rule arrives as a delete.
    await t.request.patch(`/items/articles/${id}`).set(auth(admin)).send({ status: 'draft' }).expect(200);
    expect(await s.next((m) => m.uid === 'a')).toEqual({ type: 'subscription', event: 'delete', uid: 'a', data: [String(id)] });

    await t.request.delete('/items/articles/1').set(auth(admin)).expect(204);
    expect(await s.next((m) => m.uid === 'a')).toEqual({ type: 'subscription', event: 'delete', uid: 'a', data: ['1'] });

    s.send({ type: 'unsubscribe', uid: 'a' });
    // Confirmed as Directus confirms it (issue 31).
    expect(await s.next((m) => m.uid === 'a')).toEqual({ type: 'subscription', event: 'unsubscribe', uid: 'a' });
    // The sentinel: another subscription of the same socket gets the change that 'a' must not.
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['title'] }, uid: 'z' });
    expect((await s.next((m) => m.uid === 'z')).event).toBe('init');
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'After', status: 'published' }).expect(200);
    expect(await s.next((m) => m.uid === 'z')).toEqual({ type: 'subscription', event: 'create', uid: 'z', data: [{ title: 'After' }] });
    await s.nothing((m) => m.uid === 'a', () => first.realtime!.hub.idle());
  });

  it('honours the subscription query: fields and filter', async () => {
    const s = await socket(first, admin);
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['title'], filter: { title: { _starts_with: 'Blue' } } }, uid: 'q' });
    expect((await s.next((m) => m.uid === 'q')).event).toBe('init');
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Red', status: 'published' }).expect(200);
    await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Blue', status: 'published' }).expect(200);
    expect(await s.next((m) => m.uid === 'q')).toEqual({ type: 'subscription', event: 'create', uid: 'q', data: [{ title: 'Blue' }] });
  });

  it('sends a batch create as one create event per item, as Directus does (issue 31)', async () => {
    const s = await socket(first, admin);
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['title'], filter: { title: { _starts_with: 'Batch' } } }, uid: 'b' });
    expect((await s.next((m) => m.uid === 'b')).event).toBe('init');
    await t.request.post('/items/articles').set(auth(admin)).send([{ title: 'Batch 1', status: 'published' }, { title: 'Batch 2', status: 'published' }]).expect(200);
    const received = [await s.next((m) => m.uid === 'b'), await s.next((m) => m.uid === 'b')];
    // In either order, as Directus's suite takes them.
    expect(received).toEqual(expect.arrayContaining([
      { type: 'subscription', event: 'create', uid: 'b', data: [{ title: 'Batch 1' }] },
      { type: 'subscription', event: 'create', uid: 'b', data: [{ title: 'Batch 2' }] },
    ]));
  });

  it("sends only the subscription's event, and its uid as a string, as Directus does (issue 31)", async () => {
    const s = await socket(first, admin);
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['title'] }, uid: 7, event: 'update' });
    expect(await s.next((m) => m.uid === '7')).toMatchObject({ type: 'subscription', event: 'init', uid: '7' });
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['title'] }, uid: 'd', event: 'delete' });
    expect((await s.next((m) => m.uid === 'd')).event).toBe('init');
    const id = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Filtered', status: 'published' }).expect(200)).body.data.id;
    await t.request.patch(`/items/articles/${id}`).set(auth(admin)).send({ title: 'Filtered again' }).expect(200);
    await t.request.delete(`/items/articles/${id}`).set(auth(admin)).expect(204);
    // The create came first: had it been sent, it would be the first of each uid's messages.
    expect(await s.next((m) => m.uid === '7')).toEqual({ type: 'subscription', event: 'update', uid: '7', data: [{ title: 'Filtered again' }] });
    expect(await s.next((m) => m.uid === 'd')).toEqual({ type: 'subscription', event: 'delete', uid: 'd', data: [String(id)] });
    s.send({ type: 'unsubscribe', uid: 7 });
    expect(await s.next((m) => m.event === 'unsubscribe')).toEqual({ type: 'subscription', event: 'unsubscribe', uid: 7 });
    s.send({ type: 'subscribe', collection: 'articles', uid: 'e', event: 'change' });
    expect(await s.next((m) => m.uid === 'e')).toMatchObject({ status: 'error', error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining('"event"') } });
  });

  it('announces a delete with the keys as the caller sent them: a JSON body\'s numbers, a path\'s and GraphQL\'s strings, as Directus does (issue 31)', async () => {
    const s = await socket(first, admin);
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['id'] }, uid: 'k', event: 'delete' });
    expect((await s.next((m) => m.uid === 'k')).event).toBe('init');
    const created = (await t.request.post('/items/articles').set(auth(admin)).send([{ title: 'k1' }, { title: 'k2' }, { title: 'k3' }, { title: 'k4' }]).expect(200)).body.data;
    const [a, b, c, d] = created.map((item: { id: number }) => item.id);
    // A repeated key counts once, in its first spelling.
    await t.request.delete('/items/articles').set(auth(admin)).send([a, b, String(a)]).expect(204);
    expect(await s.next((m) => m.uid === 'k')).toEqual({ type: 'subscription', event: 'delete', uid: 'k', data: [a, b] });
    await t.request.delete(`/items/articles/${c}`).set(auth(admin)).expect(204);
    expect(await s.next((m) => m.uid === 'k')).toEqual({ type: 'subscription', event: 'delete', uid: 'k', data: [String(c)] });
    await t.request.post('/graphql').set(auth(admin)).send({ query: `mutation { delete_articles_items(ids: [${d}]) { ids } }` }).expect(200);
    expect(await s.next((m) => m.uid === 'k')).toEqual({ type: 'subscription', event: 'delete', uid: 'k', data: [String(d)] });
  });

  it('refuses a subscription to what the caller may not read, with a code', async () => {
    const s = await socket(first, reader);
    s.send({ type: 'subscribe', collection: 'notes', uid: 'u' });
    expect(await s.next((m) => m.uid === 'u')).toMatchObject({ type: 'subscribe', status: 'error', error: { code: 'FORBIDDEN' } });
    s.send({ type: 'subscribe', uid: 'v' });
    expect(await s.next((m) => m.uid === 'v')).toMatchObject({ status: 'error', error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining('"collection"') } });
  });

  it('reaches subscribers of another instance through Redis', async () => {
    const s = await socket(second, reader);
    s.send({ type: 'subscribe', collection: 'articles', query: { fields: ['id', 'title'] }, uid: 'r' });
    expect((await s.next((m) => m.uid === 'r')).event).toBe('init');
    const id = (await t.request.post('/items/articles').set(auth(admin)).send({ title: 'Across', status: 'published', secret: 'no' }).expect(200)).body.data.id;
    expect(await s.next((m) => m.uid === 'r')).toEqual({ type: 'subscription', event: 'create', uid: 'r', data: [{ id, title: 'Across' }] });
  });
});

describe('authentication', () => {
  it('treats an unauthenticated connection as the public role in public mode', async () => {
    const s = await socket(first);
    s.send({ type: 'subscribe', collection: 'articles', uid: 'p' });
    expect(await s.next((m) => m.uid === 'p')).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
  });

  it('signs in with e-mail and password, and refuses a bad token with an error', async () => {
    const s = await socket(first);
    s.send({ type: 'auth', email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect(await s.next((m) => m.type === 'auth')).toMatchObject({ type: 'auth', status: 'ok', refresh_token: expect.any(String) });
    s.send({ type: 'auth', access_token: 'not-a-token' });
    expect(await s.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'error', error: { code: 'AUTH_FAILED', message: 'Authentication handshake failed.' } });
  });

  it('accepts the token on the upgrade request', async () => {
    const s = await openSocket(url(first, `?access_token=${admin}`));
    sockets.push(s);
    s.send({ type: 'items', collection: 'articles', action: 'read', query: { fields: ['secret'], limit: 1 }, uid: 'i' });
    expect((await s.next((m) => m.uid === 'i')).data[0]).toHaveProperty('secret');
  });
});

describe('items over the socket', () => {
  it('creates, reads, updates and deletes through the caller permissions', async () => {
    const s = await socket(first, admin);
    s.send({ type: 'items', collection: 'articles', action: 'create', data: { title: 'Sock', status: 'draft' }, uid: 'c' });
    const created = (await s.next((m) => m.uid === 'c')).data;
    expect(created).toMatchObject({ title: 'Sock', status: 'draft' });
    s.send({ type: 'items', collection: 'articles', action: 'update', id: created.id, data: { title: 'Sock 2' }, uid: 'u' });
    expect((await s.next((m) => m.uid === 'u')).data).toMatchObject({ id: created.id, title: 'Sock 2' });
    s.send({ type: 'items', collection: 'articles', action: 'read', id: created.id, query: { fields: ['title'] }, uid: 'r' });
    expect(await s.next((m) => m.uid === 'r')).toEqual({ type: 'items', uid: 'r', data: { title: 'Sock 2' } });
    s.send({ type: 'items', collection: 'articles', action: 'delete', id: created.id, uid: 'd' });
    expect(await s.next((m) => m.uid === 'd')).toEqual({ type: 'items', uid: 'd', data: created.id });

    const r = await socket(first, reader);
    r.send({ type: 'items', collection: 'articles', action: 'create', data: { title: 'Nope' }, uid: 'x' });
    expect(await r.next((m) => m.uid === 'x')).toMatchObject({ type: 'items', status: 'error', error: { code: 'FORBIDDEN' } });
    r.send({ type: 'items', collection: 'articles', action: 'fly', uid: 'y' });
    expect(await r.next((m) => m.uid === 'y')).toMatchObject({ status: 'error', error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining('"action"') } });
  });
});

describe('heartbeat and limits', () => {
  it('answers ping with pong', async () => {
    const s = await socket(first);
    s.send({ type: 'ping' });
    expect(await s.next()).toEqual({ type: 'pong' });
  });

  it('caps subscriptions per connection', async () => {
    const s = await socket(first, admin);
    for (const uid of ['1', '2', '3']) {
      s.send({ type: 'subscribe', collection: 'articles', query: { limit: 1 }, uid });
      expect((await s.next((m) => m.uid === uid)).event).toBe('init');
    }
    s.send({ type: 'subscribe', collection: 'articles', uid: '4' });
    expect(await s.next((m) => m.uid === '4')).toMatchObject({ status: 'error', error: { code: 'INVALID_PAYLOAD' } });
  });

  it('caps connections per user', async () => {
    const mine: TestSocket[] = [];
    for (let i = 0; i < 5; i += 1) mine.push(await socket(first, reader));
    const extra = await openSocket(url(first));
    sockets.push(extra);
    extra.send({ type: 'auth', access_token: reader });
    expect(await extra.next((m) => m.type === 'auth')).toMatchObject({ status: 'error', error: { code: 'REQUESTS_EXCEEDED' } });
    expect((await extra.closed).code).toBe(1013);
    await mine[0]!.close();
    const again = await socket(first, reader);
    expect(again.ws.readyState).toBe(again.ws.OPEN);
    for (const s of mine) await s.close();
  });

  it('closes a connection that sends a message over the size limit', async () => {
    const s = await socket(first);
    s.send({ type: 'ping', padding: 'x'.repeat(5_000) });
    expect((await s.closed).code).toBe(1009);
  });
});
