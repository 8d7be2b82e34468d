import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';
import { createEmptyDatabase } from '../../helpers/test-database.ts';
import { startReceiver } from './receiver.ts';

afterAll(() => killSpawned());

it('tessera start runs the job worker: a write through the API reaches the webhook; SIGTERM stops it cleanly', { timeout: 90_000 }, async () => {
  const database = await createEmptyDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-worker-'));
  const receiver = await startReceiver();
  try {
    const server = spawnCli(['start'], { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1', DB_URL: database.url, ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'ops-password-1', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    try {
      const [, , port] = await server.waitFor(/Admin:\s+(http:\/\/localhost:(\d+))\/admin/);
      const url = `http://127.0.0.1:${port}`;
      const call = (method: string, route: string, token: string | null, body: unknown) =>
        fetch(`${url}${route}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      const token = ((await (await call('POST', '/auth/login', null, { email: 'ops@example.com', password: 'ops-password-1' })).json()) as any).data.access_token;
      expect((await call('POST', '/collections', token, { collection: 'events', fields: [{ field: 'name', type: 'string' }] })).status).toBe(200);
      expect((await call('POST', '/webhooks', token, { name: 'events', url: `${receiver.url}/start`, actions: ['create'], collections: ['events'] })).status).toBe(200);
      expect((await call('POST', '/items/events', token, { name: 'launch' })).status).toBe(200);
      const [delivery] = await receiver.waitFor(1, '/start', 30_000);
      expect(delivery!.body).toMatchObject({ event: 'items.create', collection: 'events', payload: { name: 'launch' } });
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    expect(server.output()).toContain('Tessera stopped.');
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
});
