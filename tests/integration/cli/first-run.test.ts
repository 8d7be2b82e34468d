import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli, type CliResult } from '../../helpers/cli.ts';
import { adminQuery, uniqueDatabaseName, urlFor } from '../../helpers/postgres.ts';
import { createEmptyDatabase, createMigratedDatabase, type TestDatabase } from '../../helpers/test-database.ts';
import { EXAMPLE_FOLDER, readTree } from '../snapshot/snapshot-helpers.ts';

afterAll(() => killSpawned());

const cwd = mkdtempSync(path.join(tmpdir(), 'tessera-first-run-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** Runs a command that must end by itself within `timeoutMs`; a hang fails the test instead of stalling it. */
async function runWithin(args: string[], env: Record<string, string>, timeoutMs = 20_000): Promise<CliResult> {
  const run = spawnCli(args, { cwd, env });
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      reject(new Error(`tessera ${args.join(' ')} still running after ${timeoutMs} ms; output:\n${run.output()}`));
    }, timeoutMs);
  });
  try {
    const code = await Promise.race([run.exited(), hung]);
    // spawnCli mixes both streams; the commands print their errors on stderr, data on stdout.
    return { code, stdout: run.output(), stderr: run.output() };
  } finally {
    clearTimeout(timer);
  }
}

describe('first start on a database that does not exist yet', () => {
  const name = uniqueDatabaseName('tessera_first');
  afterAll(() => adminQuery(`drop database if exists "${name}" with (force)`));

  it('creates and migrates it, serves, and prints a working admin login', { timeout: 90_000 }, async () => {
    const server = spawnCli(['start'], { cwd, env: { DB_URL: urlFor(name), PORT: '0', HOST: '127.0.0.1' } });
    try {
      const [, port] = await server.waitFor(/Admin:\s+http:\/\/localhost:(\d+)\/admin/);
      const [, password] = await server.waitFor(/password:\s+(\S+)/);
      const response = await fetch(`http://127.0.0.1:${port}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password }),
      });
      expect(response.status).toBe(200);
      expect(server.output()).not.toContain('Unexpected error');
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
  });
});

describe('every command against an empty database ends with a clear message and its exit code', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createEmptyDatabase();
    env = { DB_URL: database.url };
    cpSync(EXAMPLE_FOLDER, path.join(cwd, 'blog'), { recursive: true });
  });
  afterAll(() => database.drop());

  const NO_SCHEMA = 'The database has no Tessera schema: run `tessera migrate` (or `tessera apply --migrate`) first.';
  const cases: Array<{ args: string[]; code: number }> = [
    { args: ['snapshot', '--out', 'out'], code: 1 },
    { args: ['diff', '--from', 'blog'], code: 2 },
    { args: ['apply', '--from', 'blog', '--yes'], code: 1 },
    { args: ['users', 'list'], code: 1 },
    { args: ['users', 'create', '--email', 'a@example.com', '--password', 'long-enough-1'], code: 1 },
    { args: ['users', 'passwd', '--email', 'a@example.com', '--password', 'long-enough-1'], code: 1 },
  ];
  for (const { args, code } of cases) {
    it(`tessera ${args.join(' ')} → exit ${code}`, async () => {
      const result = await runWithin(args, env);
      expect(result.stderr).toContain(NO_SCHEMA);
      expect(result.stderr).not.toContain('Unexpected error');
      expect(result.code).toBe(code);
    });
  }

  it('leaves no connection behind, and the database untouched', async () => {
    const { rows } = await adminQuery(`select count(*)::int as n from pg_stat_activity where datname = '${database.name}'`);
    expect(rows[0].n).toBe(0);
    const tables = await adminQuery(`select 1 from pg_database where datname = '${database.name}'`);
    expect(tables.rowCount).toBe(1);
  });

  it('apply --migrate migrates the empty database, then applies', { timeout: 60_000 }, async () => {
    expect((await runWithin(['apply', '--from', 'blog', '--migrate', '--dry-run'], env)).code).toBe(2);
    const applied = await runWithin(['apply', '--from', 'blog', '--migrate', '--yes'], env, 45_000);
    expect(applied.stderr).toMatch(/Applied \d+ step\(s\) in one transaction/);
    expect(applied.code).toBe(0);
    expect((await runWithin(['diff', '--from', 'blog'], env)).code).toBe(0);
  });
});

describe('a database one system migration behind', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createMigratedDatabase();
    env = { DB_URL: database.url };
    cpSync(EXAMPLE_FOLDER, path.join(cwd, 'behind'), { recursive: true });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(`delete from tessera_migrations where name = (select max(name) from tessera_migrations)`);
    await client.end();
  });
  afterAll(() => database.drop());

  // diff and snapshot check without MikroORM's migrator (cli/schema-check.ts); users list through it.
  const OUT_OF_DATE = "The database's Tessera schema is out of date (1 system migration(s) pending): run `tessera migrate` (or `tessera apply --migrate`) first.";
  const cases: Array<{ args: string[]; code: number }> = [
    { args: ['snapshot', '--out', 'out-behind'], code: 1 },
    { args: ['diff', '--from', 'behind'], code: 2 },
    { args: ['users', 'list'], code: 1 },
  ];
  for (const { args, code } of cases) {
    it(`tessera ${args.join(' ')} → exit ${code}`, async () => {
      const result = await runWithin(args, env);
      expect(result.stderr).toContain(OUT_OF_DATE);
      expect(result.code).toBe(code);
    });
  }
});

describe('snapshot never replaces another project', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createEmptyDatabase();
    env = { DB_URL: database.url };
    expect((await runWithin(['migrate'], env, 45_000)).code).toBe(0);
    cpSync(EXAMPLE_FOLDER, path.join(cwd, 'snapshots'), { recursive: true });
  }, 60_000);
  afterAll(() => database.drop());

  it('refuses a folder holding another project snapshot, writes with --force, then accepts its own', async () => {
    const before = readFileSync(path.join(cwd, 'snapshots/collections/posts.yaml'), 'utf8');
    const refused = await runWithin(['snapshot'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('holds the snapshot of another project ("Tessera Blog"');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(path.join(cwd, 'snapshots/collections/posts.yaml'), 'utf8')).toBe(before);

    const forced = await runWithin(['snapshot', '--force'], env);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('Wrote');
    expect(await runWithin(['snapshot'], env)).toMatchObject({ code: 0 });
  });

  it("in this repository, snapshot with no flags refuses to replace snapshots/, the example project's own files", async () => {
    const repository = path.dirname(EXAMPLE_FOLDER);
    expect(path.basename(EXAMPLE_FOLDER)).toBe('snapshots');
    const before = readTree(EXAMPLE_FOLDER);
    const run = spawnCli(['snapshot'], { cwd: repository, env: { ...env, SECRET: 'first-run-secret-that-is-long-enough-0123' } });
    expect(await run.exited()).toBe(1);
    expect(run.output()).toContain('Refusing: snapshots/ holds the snapshot of another project ("Tessera Blog"');
    expect(readTree(EXAMPLE_FOLDER)).toEqual(before);
  });
});
