import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';

afterAll(() => killSpawned());

const READY = /Admin:\s+http:\/\/localhost:(\d+)\/admin/;
const CREDENTIALS = JSON.stringify({ email: 'ops@example.com', password: 'ops-password-1' });

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
  });
}

function loginHead(length: number): string {
  return `POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: keep-alive\r\n\r\n`;
}

describe('graceful shutdown of tessera start', () => {
  it('finishes the request in flight, refuses new connections, answers with Connection: close, exits 0', { timeout: 90_000 }, async () => {
    const database = await createMigratedDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-shutdown-'));
    try {
      const server = spawnCli(['start'], {
        cwd: dir,
        env: { PORT: '0', HOST: '127.0.0.1', DB_URL: database.url, ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'ops-password-1', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT: '20s' },
      });
      const port = Number((await server.waitFor(READY))[1]);

      // An idle keep-alive connection: closed by the server at shutdown, not kept until it times out.
      const idle = await openSocket(port);
      const idleText = readUntilClosed(idle);
      idle.write(`GET /server/ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
      await new Promise((resolve) => idle.once('data', resolve));

      // A slow request: headers and half the body sent; the handler waits for the rest.
      const slow = await openSocket(port);
      const slowText = readUntilClosed(slow);
      slow.write(loginHead(CREDENTIALS.length) + CREDENTIALS.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 300));

      server.child.kill('SIGTERM');
      await server.waitFor(/shutting down/);
      await idleText;

      await expect(fetch(`http://127.0.0.1:${port}/server/ping`)).rejects.toThrow();

      // The rest of the body, and a second request pipelined on the same, still open connection.
      slow.write(CREDENTIALS.slice(10) + `GET /server/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      const responses = (await slowText).split(/(?=HTTP\/1\.1 )/);
      expect(responses[0]).toMatch(/^HTTP\/1\.1 200 /);
      expect(responses[0]).toMatch(/access_token/);
      expect(responses[0]).toMatch(/\r\nConnection: close\r\n/i);
      // The pipelined request is answered (with Connection: close) or never read; never left hanging.
      if (responses[1]) expect(responses[1]).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\nConnection: close\r\n/i);

      expect(await server.exited()).toBe(0);
      expect(server.output()).toContain('Tessera stopped.');
      expect(server.output()).not.toMatch(/"level":(50|60)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });

  it('drops requests still running when SHUTDOWN_TIMEOUT passes, then exits 0', { timeout: 90_000 }, async () => {
    const database = await createMigratedDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-shutdown-'));
    try {
      const server = spawnCli(['start'], { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1', DB_URL: database.url, ADMIN_PASSWORD: 'ops-password-1', SHUTDOWN_TIMEOUT: '1s' } });
      const port = Number((await server.waitFor(READY))[1]);
      const stuck = await openSocket(port);
      const stuckText = readUntilClosed(stuck);
      stuck.write(loginHead(CREDENTIALS.length) + CREDENTIALS.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      expect(await stuckText).toBe('');
      expect(await server.exited()).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(8_000);
      expect(server.output()).toContain('shutdown timeout');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});

describe('crash safety of tessera start', () => {
  it('logs an uncaught exception and an unhandled rejection and keeps serving', { timeout: 90_000 }, async () => {
    const database = await createMigratedDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-crash-'));
    // Loaded into the server process: on SIGUSR2, throw from a timer and leave a rejected promise.
    const fault = path.join(dir, 'fault.mjs');
    writeFileSync(
      fault,
      `process.on('SIGUSR2', () => {\n  setTimeout(() => { throw new Error('boom from a timer'); }, 0);\n  Promise.reject(new Error('nobody awaited me'));\n});\n`,
    );
    try {
      const server = spawnCli(['start'], { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1', DB_URL: database.url, ADMIN_PASSWORD: 'ops-password-1', NODE_OPTIONS: `--import=${fault}` } });
      const port = Number((await server.waitFor(READY))[1]);
      server.child.kill('SIGUSR2');
      await server.waitFor(/"msg":"uncaught exception \(the server keeps running\)"/);
      await server.waitFor(/"msg":"unhandled promise rejection \(the server keeps running\)"/);
      expect(server.output()).toContain('boom from a timer');
      expect(server.output()).toContain('nobody awaited me');
      const health = await fetch(`http://127.0.0.1:${port}/server/health`);
      expect(health.status).toBe(200);
      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
