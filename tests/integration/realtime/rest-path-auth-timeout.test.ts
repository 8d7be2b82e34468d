import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { openSocket, upgradeStatus } from './socket-client.ts';

/**
 * WEBSOCKETS_REST_PATH and WEBSOCKETS_REST_AUTH_TIMEOUT (docs/config.md), the two variables Directus's
 * websocket/auth suite starts its servers with (issue 31).
 */
describe('realtime on WEBSOCKETS_REST_PATH with WEBSOCKETS_REST_AUTH_TIMEOUT', () => {
  let t: TestApp;
  let server: RunningServer;
  let admin: string;
  const url = (path: string) => `ws://127.0.0.1:${server.port}${path}`;

  beforeAll(async () => {
    t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', WEBSOCKETS_REST_AUTH: 'handshake', WEBSOCKETS_REST_PATH: '/wsRest', WEBSOCKETS_REST_AUTH_TIMEOUT: '1' });
    server = await listen(t.context);
    admin = await t.login();
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('serves the realtime protocol on the configured path only', async () => {
    expect(await upgradeStatus(url('/websocket'))).toBe(404);
    const s = await openSocket(url('/wsRest'));
    try {
      s.send({ type: 'auth', access_token: admin });
      expect(await s.next((m) => m.type === 'auth')).toMatchObject({ type: 'auth', status: 'ok' });
    } finally {
      await s.close();
    }
  });

  it('closes a connection that sent no auth within the timeout, and keeps one that did', async () => {
    const signedIn = await openSocket(url('/wsRest'));
    signedIn.send({ type: 'auth', access_token: admin });
    expect(await signedIn.next((m) => m.type === 'auth')).toMatchObject({ status: 'ok' });
    const silent = await openSocket(url('/wsRest'));
    const started = Date.now();
    try {
      expect(await silent.next((m) => m.type === 'auth', 5_000)).toMatchObject({ status: 'error', error: { code: 'AUTH_TIMEOUT' } });
      expect((await silent.closed).code).toBe(1008);
      // Well under the 10 s default: the variable set the timer.
      expect(Date.now() - started).toBeLessThan(5_000);
      // Opened earlier, so its timer (had it one) would have fired first: it still answers.
      signedIn.send({ type: 'ping' });
      expect(await signedIn.next((m) => m.type === 'pong')).toMatchObject({ type: 'pong' });
    } finally {
      await signedIn.close();
      await silent.close();
    }
  });
});
