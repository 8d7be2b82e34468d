import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../helpers/test-app.ts';
import { openSocket } from './socket-client.ts';

/**
 * The handshake behaviours Directus's websocket/auth suite checks (issue 31): a token living longer than
 * setTimeout's limit (ACCESS_TOKEN_TTL=25d, past 2^31-1 ms) is not expired at once, nothing but `auth` is
 * answered before it, and the auth timeout is for the `auth` message to arrive, not for the password check.
 */
describe('realtime handshake as Directus suite expects it', () => {
  let t: TestApp;
  let server: RunningServer;
  let admin: string;
  const url = (query = '') => `ws://127.0.0.1:${server.port}/websocket${query}`;

  beforeAll(async () => {
    t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', WEBSOCKETS_REST_AUTH: 'handshake', WEBSOCKETS_REST_AUTH_TIMEOUT: '1', ACCESS_TOKEN_TTL: '25d' });
    server = await listen(t.context);
    admin = await t.login();
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('keeps a connection whose token expires in 25 days (auth message and query string)', async () => {
    const byMessage = await openSocket(url());
    const byQuery = await openSocket(url(`?access_token=${admin}`));
    try {
      byMessage.send({ type: 'auth', access_token: admin });
      expect(await byMessage.next((m) => m.type === 'auth')).toEqual({ type: 'auth', status: 'ok' });
      // An overflowed timer fires within a millisecond: the pong comes after it, with no TOKEN_EXPIRED before.
      for (const s of [byMessage, byQuery]) {
        await s.nothing((m) => m.type === 'auth' && m.status === 'error', async () => {});
        expect(s.ws.readyState).toBe(s.ws.OPEN);
      }
    } finally {
      await byMessage.close();
      await byQuery.close();
    }
  });

  it('answers a ping sent before auth with AUTH_FAILED and closes', async () => {
    const s = await openSocket(url());
    s.send({ type: 'ping' });
    expect(await s.next()).toMatchObject({ type: 'auth', status: 'error', error: { code: 'AUTH_FAILED' } });
    expect((await s.closed).code).toBe(1008);
  });

  it('lets a password check that outlasts the auth timeout finish', async () => {
    // A hash whose time cost is raised until hashing takes well over the 1 s timeout on this machine:
    // checking it takes about as long.
    let slow = '';
    for (let timeCost = 100, tookMs = 0; tookMs <= 1_500; timeCost *= 2) {
      const started = Date.now();
      slow = await argon2.hash(TEST_ADMIN.password, { type: argon2.argon2id, timeCost, memoryCost: 19_456 });
      tookMs = Date.now() - started;
    }
    await t.system.db.updateTable('tessera_users').set({ password: slow }).where('email', '=', TEST_ADMIN.email).execute();
    const s = await openSocket(url());
    try {
      s.send({ type: 'auth', email: TEST_ADMIN.email, password: TEST_ADMIN.password });
      expect(await s.next((m) => m.type === 'auth', 30_000)).toMatchObject({ type: 'auth', status: 'ok' });
    } finally {
      await s.close();
    }
  }, 60_000);
});
