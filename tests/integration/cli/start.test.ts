import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli, type RunningCli } from '../../helpers/cli.ts';
import { createEmptyDatabase } from '../../helpers/test-database.ts';

afterAll(() => killSpawned());

const READY = /Admin:\s+(http:\/\/localhost:(\d+))\/admin/;

async function start(cwd: string, env: Record<string, string>): Promise<{ server: RunningCli; url: string }> {
  const server = spawnCli(['start'], { cwd, env: { PORT: '0', HOST: '127.0.0.1', ...env } });
  const [, , port] = await server.waitFor(READY);
  return { server, url: `http://127.0.0.1:${port}` };
}

async function login(url: string, email: string, password: string): Promise<Response> {
  return fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
}

describe('tessera start on the embedded database', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-embedded-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('boots, prints working credentials, shuts down cleanly and keeps the data', { timeout: 120_000 }, async () => {
    const first = await start(dir, {});
    const password = (await first.server.waitFor(/password:\s+(\S+)/))[1]!;
    const health = await fetch(`${first.url}/server/health`);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const signIn = await login(first.url, 'admin@example.com', password);
    expect(signIn.status).toBe(200);

    const rival = spawnCli(['start'], { cwd: dir, env: { PORT: '0' } });
    expect(await rival.exited()).toBe(1);
    expect(rival.output()).toMatch(/in use by process \d+/);

    expect(await first.server.stop('SIGINT')).toBe(0);
    expect(first.server.output()).toContain('Tessera stopped.');

    const second = await start(dir, {});
    try {
      expect(second.server.output()).not.toContain('First administrator created');
      expect((await login(second.url, 'admin@example.com', password)).status).toBe(200);
    } finally {
      expect(await second.server.stop('SIGTERM')).toBe(0);
    }
  });
});

describe('tessera start on PostgreSQL (DB_URL)', () => {
  it('migrates an empty database (system, then project migrations), seeds the configured admin and serves', { timeout: 60_000 }, async () => {
    const database = await createEmptyDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-pg-'));
    mkdirSync(path.join(dir, 'project-migrations'));
    writeFileSync(path.join(dir, 'project-migrations', '20261201000000-visits.ts'), `export async function up(db) {\n  await db.schema.createTable('visits').addColumn('id', 'integer').execute();\n}\n`);
    try {
      const { server, url } = await start(dir, { DB_URL: database.url, ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'ops-password-1' });
      try {
        expect(server.output()).toContain('the ADMIN_PASSWORD you configured');
        expect((await fetch(`${url}/server/health`)).status).toBe(200);
        expect((await login(url, 'ops@example.com', 'ops-password-1')).status).toBe(200);
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const { rows } = await client.query(`select name from tessera_migrations where name like 'project/%'`);
          expect(rows).toEqual([{ name: 'project/20261201000000-visits' }]);
        } finally {
          await client.end();
        }
      } finally {
        expect(await server.stop('SIGTERM')).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
