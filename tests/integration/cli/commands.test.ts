import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { createEmptyDatabase, createMigratedDatabase, type TestDatabase } from '../../helpers/test-database.ts';

const cwd = mkdtempSync(path.join(tmpdir(), 'tessera-cli-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function query(url: string, statement: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement, values);
  } finally {
    await client.end();
  }
}

describe('program basics', () => {
  it('prints the version and help with exit 0', async () => {
    const version = await runCli(['--version'], { cwd });
    expect(version).toMatchObject({ code: 0 });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await runCli(['--help'], { cwd });
    expect(help.code).toBe(0);
    for (const command of ['init', 'start', 'migrate', 'users']) expect(help.stdout).toContain(command);
  });

  it('exits 2 on usage errors', async () => {
    expect((await runCli(['frobnicate'], { cwd })).code).toBe(2);
    expect((await runCli(['migrate', 'sideways'], { cwd })).code).toBe(2);
    expect((await runCli(['users', 'list', '--bogus'], { cwd })).code).toBe(2);
  });

  it('exits 1 with one message naming every bad variable', async () => {
    const result = await runCli(['migrate', 'status'], { cwd, env: { PORT: 'abc', DB_URL: 'mysql://x', LOG_LEVEL: 'loud' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    for (const name of ['PORT', 'DB_URL', 'LOG_LEVEL']) expect(result.stderr).toContain(`${name}:`);
    expect(result.stderr).not.toContain('    at ');
  });
});

describe('tessera migrate', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createEmptyDatabase();
  });
  afterAll(() => database.drop());

  it('reports, applies, reverts and re-applies the system migrations', { timeout: 60_000 }, async () => {
    const env = { DB_URL: database.url };
    const pending = JSON.parse((await runCli(['migrate', 'status', '--json'], { cwd, env })).stdout);
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((m: { executed_at: string | null }) => m.executed_at === null)).toBe(true);

    const latest = await runCli(['migrate', 'latest', '--json'], { cwd, env });
    expect(latest.code).toBe(0);
    expect(JSON.parse(latest.stdout).migrations).toEqual(pending.map((m: { name: string }) => m.name));
    const tables = await query(database.url, `select count(*)::int as n from information_schema.tables where table_name like 'tessera\\_%'`);
    expect(tables.rows[0].n).toBe(24);

    const down = await runCli(['migrate', 'down', '--json'], { cwd, env });
    expect(JSON.parse(down.stdout).migrations).toHaveLength(1);
    const up = await runCli(['migrate', 'up', '--json'], { cwd, env });
    expect(JSON.parse(up.stdout).migrations).toHaveLength(1);
    const again = await runCli(['migrate'], { cwd, env });
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain('Nothing to migrate.');
  });
});

describe('tessera users', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createMigratedDatabase();
    await query(database.url, `insert into tessera_roles (name, admin_access, app_access) values ('Administrator', true, true)`);
  });
  afterAll(() => database.drop());

  it('creates, lists and re-passwords users', async () => {
    const env = { DB_URL: database.url };
    const created = await runCli(['users', 'create', '--email', 'Editor@Example.com', '--password', 'first-pass-1', '--admin', '--first-name', 'Ed', '--json'], { cwd, env });
    expect(created.code).toBe(0);
    const { id, email } = JSON.parse(created.stdout);
    expect(email).toBe('Editor@Example.com');

    const listed = JSON.parse((await runCli(['users', 'list', '--json'], { cwd, env })).stdout);
    expect(listed).toEqual([expect.objectContaining({ id, email: 'editor@example.com', first_name: 'Ed', role_name: 'Administrator', status: 'active' })]);
    expect(JSON.stringify(listed)).not.toContain('argon2');

    expect((await runCli(['users', 'passwd', '--email', 'editor@example.com', '--password', 'second-pass-2'], { cwd, env })).code).toBe(0);
    const { rows } = await query(database.url, 'select password from tessera_users where id = $1', [id]);
    expect(await argon2.verify(rows[0].password, 'second-pass-2')).toBe(true);
  });

  it('fails clearly: duplicate e-mail, unknown role, unknown user, short password', async () => {
    const env = { DB_URL: database.url };
    const duplicate = await runCli(['users', 'create', '--email', 'editor@example.com', '--password', 'another-pass'], { cwd, env });
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('"email" has to be unique');
    const role = await runCli(['users', 'create', '--email', 'x@example.com', '--password', 'another-pass', '--role', 'Ghosts'], { cwd, env });
    expect(role).toMatchObject({ code: 1 });
    expect(role.stderr).toContain('No role is named "Ghosts"');
    const unknown = await runCli(['users', 'passwd', '--email', 'nobody@example.com', '--password', 'another-pass'], { cwd, env });
    expect(unknown.stderr).toContain('No user has the e-mail');
    const short = await runCli(['users', 'create', '--email', 'y@example.com', '--password', 'short'], { cwd, env });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('password must be at least 8 characters');
  });

  it('never prompts without a terminal: a missing flag is a usage error', async () => {
    const result = await runCli(['users', 'create', '--password', 'some-pass-1'], { cwd, env: { DB_URL: database.url } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --email');
  });
});

describe('tessera init', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createEmptyDatabase();
  });
  afterAll(() => database.drop());

  it('creates .env with a fresh SECRET, migrates, names the project and prints the admin once', { timeout: 60_000 }, async () => {
    const project = path.join(cwd, 'my-site');
    const result = await runCli(['init', 'my-site', '--name', 'My Site', '--db-url', database.url, '--admin-email', 'owner@example.com'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Administrator: owner@example.com');
    const password = result.stdout.match(/Password: (\S+)/)![1]!;

    const env = readFileSync(path.join(project, '.env'), 'utf8');
    expect(env).toMatch(/^SECRET=[\w-]{64}$/m);
    expect(env).toContain(`DB_URL=${database.url}`);
    expect(env).not.toContain(password);

    const settings = await query(database.url, 'select project_name from tessera_settings');
    expect(settings.rows[0].project_name).toBe('My Site');
    const { rows } = await query(database.url, 'select password from tessera_users where email = $1', ['owner@example.com']);
    expect(await argon2.verify(rows[0].password, password)).toBe(true);

    const again = await runCli(['init', 'my-site', '--db-url', database.url], { cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Pass --force');
  });

  it('validates answers before writing anything', async () => {
    const result = await runCli(['init', 'bad-site', '--admin-email', 'not-an-email', '--yes'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ADMIN_EMAIL');
    expect(existsSync(path.join(cwd, 'bad-site', '.env'))).toBe(false);
  });
});
