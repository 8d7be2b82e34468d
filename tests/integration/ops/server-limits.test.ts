import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { listen, type RunningServer } from '../../../server/http-server.ts';
import { withinDeadline } from '../../helpers/step-deadline.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

function readUntilClosed(socket: Socket): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
  });
}

describe('listen(): timeouts and the connection cap', () => {
  let t: TestApp;
  let running: RunningServer;
  beforeAll(async () => {
    t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', SERVER_HEADERS_TIMEOUT: '1s', SERVER_REQUEST_TIMEOUT: '2s', SERVER_KEEP_ALIVE_TIMEOUT: '1s', SERVER_MAX_CONNECTIONS: '3' });
    running = await listen(t.context);
  });
  afterAll(async () => {
    await running.close();
    await t.close();
  });

  it('applies the configured values to the node:http server', () => {
    expect(running.server.headersTimeout).toBe(1_000);
    expect(running.server.requestTimeout).toBe(2_000);
    expect(running.server.keepAliveTimeout).toBe(1_000);
    expect(running.server.maxConnections).toBe(3);
  });

  it('answers a client that never finishes its headers with 408 after SERVER_HEADERS_TIMEOUT', async () => {
    const socket = await openSocket(running.port);
    const closed = readUntilClosed(socket);
    socket.write('GET /server/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const { text, ms } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(4_000);
  });

  it('closes an idle keep-alive connection after SERVER_KEEP_ALIVE_TIMEOUT', async () => {
    const socket = await openSocket(running.port);
    const closed = readUntilClosed(socket);
    socket.write('GET /server/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const { text, ms } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(ms).toBeLessThan(4_000);
  });

  it('closes connections beyond SERVER_MAX_CONNECTIONS at once and serves again when one is free', async () => {
    const held = await Promise.all([openSocket(running.port), openSocket(running.port), openSocket(running.port)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = await openSocket(running.port);
    const refused = readUntilClosed(extra);
    extra.write('GET /server/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect((await refused).text).toBe('');
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`http://127.0.0.1:${running.port}/server/ping`)).status).toBe(200);
  });
});

describe('limit variables', () => {
  it('reject a headers timeout longer than the request timeout, naming the variable', () => {
    expect(() => loadConfig({ SERVER_HEADERS_TIMEOUT: '10m', SERVER_REQUEST_TIMEOUT: '1m' })).toThrow(/SERVER_HEADERS_TIMEOUT: must not be longer than SERVER_REQUEST_TIMEOUT/);
  });

  it('reject a rate-limit window that is not whole seconds, and a Redis store without REDIS_URL', () => {
    expect(() => loadConfig({ RATE_LIMITER_DURATION: '1500ms' })).toThrow(/RATE_LIMITER_DURATION.*whole number of seconds/);
    expect(() => loadConfig({ RATE_LIMITER_STORE: 'redis' })).toThrow(/RATE_LIMITER_STORE: redis needs REDIS_URL/);
    expect(() => loadConfig({ RATE_LIMITER_POINTS: 'many' })).toThrow(/RATE_LIMITER_POINTS/);
  });

  it('default to Redis counts when REDIS_URL is set, else memory', () => {
    expect(loadConfig({}).rateLimiter).toEqual({ enabled: false, points: 50, durationMs: 1_000, store: 'memory' });
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).rateLimiter.store).toBe('redis');
    expect(loadConfig({}).server).toMatchObject({ headersTimeoutMs: 60_000, requestTimeoutMs: 300_000, keepAliveTimeoutMs: 5_000, maxConnections: 0 });
  });
});

describe('listen() with RATE_LIMITER_ENABLED', () => {
  it('serves through the limiter and closes it with the server', async () => {
    const t = await createTestApp({ HOST: '127.0.0.1', PORT: '0', RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '2', RATE_LIMITER_DURATION: '1m' });
    // Each step has a deadline that names it: this test once hung past its timeout in a whole-suite run.
    const step = <T>(label: string, work: Promise<T>) => withinDeadline(label, work, t.testDatabase.name);
    const running = await step('listen()', listen(t.context));
    try {
      const url = `http://127.0.0.1:${running.port}/server/ping`;
      const ping = async () => {
        const response = await fetch(url);
        return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
      };
      expect((await step('the first ping', ping())).status).toBe(200);
      expect((await step('the second ping', ping())).status).toBe(200);
      const third = await step('the third ping', ping());
      expect(third.status).toBe(429);
      expect(Number(third.retryAfter)).toBeGreaterThan(0);
      expect(JSON.parse(third.body).errors[0]?.extensions.code).toBe('REQUESTS_EXCEEDED');
    } finally {
      await step('closing the server', running.close());
      await step('closing the app', t.close());
    }
  });
});
