import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/http-server.ts';
import { roomId } from '../../../server/realtime/collab-hub.ts';
import { redisNamespace } from '../../../server/redis/redis-client.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { openSocket, type TestSocket } from './socket-client.ts';
import { listenTwice, type TwoServers } from './two-servers.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
let t: TestApp;
let servers: TwoServers;
let first: RunningServer;
let second: RunningServer;
let admin: string;
const tokens: Record<'ann' | 'ben' | 'rita', string> = {} as never;
const users: Record<'ann' | 'ben' | 'rita', string> = {} as never;
const sockets: TestSocket[] = [];
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

type Message = Record<string, any>;
const collab = (action: string) => (m: Message) => m.type === 'collab' && m.action === action;

async function member(server: RunningServer, token: string): Promise<TestSocket> {
  const s = await openSocket(`ws://127.0.0.1:${server.port}/websocket`);
  sockets.push(s);
  s.send({ type: 'auth', access_token: token });
  expect(await s.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
  return s;
}

async function join(s: TestSocket, item: string): Promise<Message> {
  s.send({ type: 'collab', action: 'join', collection: 'articles', item, version: null });
  return s.next((m) => m.type === 'collab' && (m.action === 'init' || m.action === 'error'));
}

/**
 * Nothing to wait for before the ping: one connection's messages are handled in order, so the answer to a
 * ping sent after a message follows everything that message made the server send to this socket.
 */
const handled = async () => undefined;

beforeAll(async () => {
  t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', REDIS_URL, WEBSOCKETS_HEARTBEAT_PERIOD: '0' });
  servers = await listenTwice(t);
  ({ first, second } = servers);
  admin = await t.login();
  const send = async (method: 'post' | 'patch', path: string, body: object) => (await t.request[method](path).set(auth(admin)).send(body).expect(200)).body.data;
  await send('post', '/collections', { collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'body', type: 'text' }, { field: 'secret', type: 'string' }, { field: 'status', type: 'string' }] });
  const editors = (await send('post', '/roles', { name: 'Editors' })).id;
  await send('post', '/permissions', { role: editors, collection: 'articles', action: 'read', fields: ['*'] });
  await send('post', '/permissions', { role: editors, collection: 'articles', action: 'update', fields: ['*'] });
  // Rita reads published articles without their secret, and edits only titles.
  const readers = (await send('post', '/roles', { name: 'Restricted' })).id;
  await send('post', '/permissions', { role: readers, collection: 'articles', action: 'read', fields: ['id', 'title', 'body', 'status'], permissions: { status: { _eq: 'published' } } });
  await send('post', '/permissions', { role: readers, collection: 'articles', action: 'update', fields: ['title'], permissions: { status: { _eq: 'published' } } });
  for (const [name, role, first_name] of [['ann', editors, 'Ann'], ['ben', editors, 'Ben'], ['rita', readers, 'Rita']] as const) {
    users[name] = (await send('post', '/users', { email: `${name}@example.com`, password: `${name}-password-1`, role, status: 'active', first_name, last_name: 'Doe' })).id;
    tokens[name] = await t.login(`${name}@example.com`, `${name}-password-1`);
  }
  // Each test opens items of its own: a socket closed by the previous test may still be leaving its rooms.
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) await send('post', '/items/articles', { title: `Article ${n}`, status: n === 2 ? 'draft' : 'published', secret: 's' });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) await s.close().catch(() => undefined);
});

afterAll(async () => {
  for (const s of sockets) await s.close().catch(() => undefined);
  await t?.context.events.idle();
  await servers?.close();
  await t?.close();
});

describe('presence and field locks across two instances', () => {
  it('shows who has the item open, locks a focused field, and hides locks of fields a member may not read', async () => {
    const ann = await member(first, tokens.ann);
    const annInit = await join(ann, '1');
    expect(annInit).toMatchObject({ type: 'collab', action: 'init', collection: 'articles', item: '1', version: null, changes: {}, focuses: {}, order: 0 });
    expect(annInit.users).toEqual([{ connection: annInit.connection, user: users.ann, name: 'Ann Doe', color: expect.any(String) }]);
    const room = annInit.room as string;

    const ben = await member(second, tokens.ben);
    const benInit = await join(ben, '1');
    expect(benInit.room).toBe(room);
    expect(benInit.users.map((u: Message) => u.name).sort()).toEqual(['Ann Doe', 'Ben Doe']);
    const joined = await ann.next(collab('join'));
    expect(joined).toMatchObject({ room, user: users.ben, name: 'Ben Doe', connection: benInit.connection });
    expect(joined.color).not.toBe(annInit.users[0].color);

    // Ann takes the title: Ben (other instance) sees it, and cannot take it himself.
    ann.send({ type: 'collab', action: 'focus', room, field: 'title' });
    expect(await ben.next(collab('focus'))).toMatchObject({ room, connection: annInit.connection, field: 'title' });
    ben.send({ type: 'collab', action: 'focus', room, field: 'title', uid: 'f1' });
    expect(await ben.next(collab('error'))).toMatchObject({ trigger: 'focus', code: 'FORBIDDEN', uid: 'f1', message: expect.stringContaining('"title"') });
    ben.send({ type: 'collab', action: 'focus', room, field: 'body' });
    expect(await ann.next(collab('focus'))).toMatchObject({ connection: benInit.connection, field: 'body' });

    // Rita joins on Ann's instance: she sees both locks on fields she may read.
    const rita = await member(first, tokens.rita);
    const ritaInit = await join(rita, '1');
    expect(ritaInit.focuses).toEqual({ [annInit.connection]: 'title', [benInit.connection]: 'body' });
    await ann.next(collab('join'));
    await ben.next(collab('join'));

    // Ann moves to the secret: Rita only learns Ann left the title, Ben sees where she went.
    ann.send({ type: 'collab', action: 'focus', room, field: 'secret' });
    expect(await ben.next((m) => collab('focus')(m) && m.field !== null)).toMatchObject({ connection: annInit.connection, field: 'secret' });
    expect(await rita.next(collab('focus'))).toMatchObject({ connection: annInit.connection, field: null });
    // Ben's next lock reaches Rita after anything Ann's move could have sent her.
    ben.send({ type: 'collab', action: 'focus', room, field: 'title' });
    expect(await rita.next((m) => collab('focus')(m) && m.field === 'title')).toMatchObject({ connection: benInit.connection });
    await rita.nothing((m) => JSON.stringify(m).includes('secret'), handled);

    // A late joiner's init does not name the secret either.
    const rita2 = await member(second, tokens.rita);
    const again = await join(rita2, '1');
    expect(Object.values(again.focuses)).not.toContain('secret');
    expect(Object.values(again.focuses)).toContain('title');
  });

  it('refuses items, fields and actions a member may not use, with codes', async () => {
    const rita = await member(first, tokens.rita);
    // A draft: not hers to read, the same answer as for an item that does not exist.
    expect(await join(rita, '2')).toMatchObject({ action: 'error', trigger: 'join', code: 'FORBIDDEN' });
    expect(await join(rita, '999')).toMatchObject({ action: 'error', trigger: 'join', code: 'FORBIDDEN' });
    const init = await join(rita, '3');
    // She may not edit the body, so she may not lock it; nor a field that does not exist.
    for (const field of ['body', 'no_such_field', '__proto__']) {
      rita.send({ type: 'collab', action: 'focus', room: init.room, field, uid: field });
      expect(await rita.next((m) => m.uid === field)).toMatchObject({ action: 'error', code: 'FORBIDDEN' });
    }
    rita.send({ type: 'collab', action: 'focus', room: 'not-a-room-of-hers', field: 'title', uid: 'r' });
    expect(await rita.next((m) => m.uid === 'r')).toMatchObject({ action: 'error', code: 'FORBIDDEN' });
    rita.send({ type: 'collab', action: 'update', room: init.room, field: 'title', changes: 'x', uid: 'u' });
    expect(await rita.next((m) => m.uid === 'u')).toMatchObject({ action: 'error', code: 'INVALID_PAYLOAD', message: expect.stringContaining('"action"') });
    rita.send({ type: 'collab', action: 'join', uid: 'c' });
    expect(await rita.next((m) => m.uid === 'c')).toMatchObject({ action: 'error', code: 'INVALID_PAYLOAD', message: expect.stringContaining('"collection"') });
    rita.send({ type: 'collab', action: 'join', collection: 'tessera_users', item: users.ann, version: null, uid: 'x' });
    expect(await rita.next((m) => m.uid === 'x')).toMatchObject({ action: 'error', code: 'FORBIDDEN' });
  });

  it('tells list watchers who is on which item, only for items they may read', async () => {
    const ann = await member(first, tokens.ann);
    const ben = await member(first, tokens.ben);
    await join(ann, '2');
    const annOnFour = await join(ann, '4');
    const rita = await member(first, tokens.rita);
    rita.send({ type: 'collab', action: 'watch', collection: 'articles', uid: 'w' });
    const presence = await rita.next((m) => m.uid === 'w');
    expect(presence).toMatchObject({ action: 'presence', collection: 'articles' });
    // The draft Ann has open is not Rita's to know about (rooms of earlier tests may still be closing).
    expect(presence.items).not.toHaveProperty('2');
    expect(presence.items['4']).toEqual([{ connection: annOnFour.connection, user: users.ann, name: 'Ann Doe', color: expect.any(String) }]);

    // Ben opens the draft (hidden from Rita), then article 5: only the second reaches her.
    await join(ben, '2');
    await join(ben, '5');
    // Updates come one item at a time, in the order the joins were handled (both on this instance).
    const next = await rita.next((m) => collab('presence')(m) && ('2' in m.items || '5' in m.items));
    expect(Object.keys(next.items)).toEqual(['5']);
    expect(next.items['5'].map((u: Message) => u.user)).toEqual([users.ben]);
    ben.send({ type: 'collab', action: 'leave', room: roomId('articles', '5', null) });
    expect((await rita.next((m) => collab('presence')(m) && '5' in m.items)).items).toEqual({ '5': [] });
  });
});

describe('saves and hand-over', () => {
  it('tells members of a save, and an item a member can no longer read arrives as delete', async () => {
    const ann = await member(first, tokens.ann);
    const rita = await member(second, tokens.rita);
    const { room } = await join(ann, '6');
    await join(rita, '6');
    await t.request.patch('/items/articles/6').set(auth(admin)).send({ title: 'Three, revised' }).expect(200);
    expect(await ann.next(collab('save'))).toMatchObject({ room });
    expect(await rita.next(collab('save'))).toMatchObject({ room });
    await t.request.patch('/items/articles/6').set(auth(admin)).send({ status: 'draft' }).expect(200);
    expect(await ann.next(collab('save'))).toMatchObject({ room });
    expect(await rita.next((m) => collab('delete')(m) || collab('save')(m))).toMatchObject({ action: 'delete', room });
    // She is out of the room: Ann is told so.
    expect(await ann.next(collab('leave'))).toMatchObject({ room });
    await t.request.patch('/items/articles/6').set(auth(admin)).send({ status: 'published' }).expect(200);
  });

  it('releases the locks of a socket that drops, and tells the others it left', async () => {
    const ann = await member(first, tokens.ann);
    const ben = await member(second, tokens.ben);
    const annInit = await join(ann, '7');
    await join(ben, '7');
    ann.send({ type: 'collab', action: 'focus', room: annInit.room, field: 'title' });
    expect(await ben.next(collab('focus'))).toMatchObject({ field: 'title' });
    ann.ws.terminate();
    expect(await ben.next(collab('leave'), 15_000)).toMatchObject({ room: annInit.room, connection: annInit.connection });
    // The title is free: Ben takes it, and no refusal comes before the answer to his next message.
    ben.send({ type: 'collab', action: 'focus', room: annInit.room, field: 'title' });
    await ben.nothing(collab('error'), handled);
  });

  it('drops members of an instance whose heartbeat expired, and frees their fields', async () => {
    const redis = new Redis(REDIS_URL);
    const namespace = redisNamespace(t.context.config.database.url, t.context.config.dataDir);
    const room = roomId('articles', '8', null);
    // What a crashed instance leaves behind: a member and its lock, and no heartbeat key.
    await redis.hset(`${namespace}collab:room:${room}:members`, 'ghost', JSON.stringify({ connection: 'ghost', user: users.ann, name: 'Ann Doe', color: 'red', instance: 'crashed-instance' }));
    await redis.hset(`${namespace}collab:room:${room}:focus`, 'title', 'ghost');
    try {
      const ben = await member(second, tokens.ben);
      const init = await join(ben, '8');
      expect(init.users.map((u: Message) => u.connection)).toEqual([init.connection]);
      expect(init.focuses).toEqual({});
      ben.send({ type: 'collab', action: 'focus', room, field: 'title' });
      await ben.nothing(collab('error'), handled);
      expect(await redis.hget(`${namespace}collab:room:${room}:focus`, 'title')).toBe(init.connection);
      // Live instances renew their heartbeat key with an expiry.
      const beating = await redis.keys(`${namespace}collab:instance:*`);
      expect(beating.length).toBeGreaterThanOrEqual(1);
      for (const key of beating) expect(await redis.pttl(key)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});
