import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { createEmptyDatabase, createMigratedDatabase, type TestDatabase } from '../../helpers/test-database.ts';
import { EXAMPLE_FOLDER, readTree } from './snapshot-helpers.ts';

const cwd = mkdtempSync(path.join(tmpdir(), 'tessera-snapshot-cli-'));
let database: TestDatabase;
let env: Record<string, string>;

async function query(statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await createMigratedDatabase();
  env = { DB_URL: database.url, SECRET: 'cli-secret-that-is-long-enough-0123456789' };
  cpSync(EXAMPLE_FOLDER, path.join(cwd, 'snapshots'), { recursive: true });
});
afterAll(async () => {
  await database.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe('tessera diff / apply / snapshot without a terminal', () => {
  it('diff exits 1 on drift and prints the plan grouped by collection and role', async () => {
    const result = await runCli(['diff'], { cwd, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('collection posts\n  + create collection posts');
    expect(result.stdout).toContain('role Editor\n  + create role Editor');
    expect(result.stdout).toMatch(/\d+ to create, \d+ to change, 0 to drop\./);
  });

  it('apply refuses without --yes (exit 2, naming the flag) and changes nothing', async () => {
    const result = await runCli(['apply'], { cwd, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pass --yes');
    expect((await query(`select count(*)::int as n from tessera_collections`)).rows[0].n).toBe(0);
  });

  it('apply --yes applies; then diff exits 0, a second apply is a no-op, and snapshot writes the same files', async () => {
    const applied = await runCli(['apply', '--yes'], { cwd, env });
    expect(applied.code).toBe(0);
    expect(applied.stderr).toMatch(/Applied \d+ step\(s\) in one transaction/);
    expect(await runCli(['diff'], { cwd, env })).toMatchObject({ code: 0, stdout: 'In sync: nothing to change.\n' });
    expect((await runCli(['apply', '--yes', '--json'], { cwd, env })).stdout).toContain('"applied":false');
    const snapshot = await runCli(['snapshot', '--out', 'again'], { cwd, env });
    expect(snapshot.code).toBe(0);
    expect(readTree(path.join(cwd, 'again'))).toEqual(readTree(EXAMPLE_FOLDER));
  });

  it('refuses data loss without --allow-data-loss (exit 1), applies it with the flag', async () => {
    await query(`insert into posts (title, slug, body) values ('A', 'a', 'text')`);
    const file = path.join(cwd, 'snapshots/collections/posts.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/  - field: body\n(    .*\n|      .*\n|        .*\n)*/, ''));
    const diff = await runCli(['diff'], { cwd, env });
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('drops field body: 1 non-null value');
    const refused = await runCli(['apply', '--yes'], { cwd, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--allow-data-loss');
    const allowed = await runCli(['apply', '--yes', '--allow-data-loss'], { cwd, env });
    expect(allowed.code).toBe(0);
    expect((await query(`select count(*)::int as n from information_schema.columns where table_name = 'posts' and column_name = 'body'`)).rows[0].n).toBe(0);
    writeFileSync(file, original);
  });

  it('diff exits 2 on an invalid file, naming the file and the path', async () => {
    const file = path.join(cwd, 'snapshots/collections/authors.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('type: text', 'type: txt'));
    const result = await runCli(['diff'], { cwd, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('collections/authors.yaml: fields[0].type must be one of the following values');
    writeFileSync(file, original);
    expect((await runCli(['diff', '--from', 'missing-folder'], { cwd, env })).code).toBe(2);
    expect((await runCli(['diff', '--only', 'everything'], { cwd, env })).code).toBe(2);
    expect((await runCli(['diff'], { cwd, env: { ...env, DB_URL: 'postgres://postgres@127.0.0.1:1/none' } })).code).toBe(2);
  });
});

describe('tessera migrate with project migrations', () => {
  it('runs system then project migrations, each once, and a failing one leaves no trace', async () => {
    const created = await runCli(['migrate', 'create', 'Add post views', '--json'], { cwd, env });
    expect(created.code).toBe(0);
    const file = JSON.parse(created.stdout).file as string;
    expect(file).toMatch(/project-migrations\/\d{14}-add-post-views\.ts$/);
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace(/\/\/ await db.*/, `await db.schema.createTable('page_views').addColumn('id', 'integer').execute();`)
        .replace('Promise<void> {}', `Promise<void> {\n  await db.schema.dropTable('page_views').execute();\n}`),
    );
    const failing = path.join(cwd, 'project-migrations', '29991231000000-broken.ts');
    writeFileSync(failing, `export async function up(db) {\n  await db.schema.createTable('half_done').addColumn('id', 'integer').execute();\n  throw new Error('boom');\n}\n`);

    const first = await runCli(['migrate', '--json'], { cwd, env });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('29991231000000-broken.ts failed (rolled back): boom');
    const status = JSON.parse((await runCli(['migrate', 'status', '--json'], { cwd, env })).stdout) as Array<{ name: string; executed_at: string | null }>;
    expect(status.map((row) => [row.name.replace(/\d{14}-add/, 'N-add'), row.executed_at !== null])).toEqual([
      ['20261121000001-system-schema', true],
      ['20261121000002-auth-verification-tokens', true],
      ['20261121000003-unique-permissions', true],
      ['20261123000001-auth-tfa-used-steps', true],
      ['20261123000002-auth-normalised-emails', true],
      ['20261123000003-webhook-deliveries', true],
      ['20261123000004-flow-ticks', true],
      ['20261123000010-geometry-domains', true],
      ['20261124000001-field-validation', true],
      ['20261124000002-unique-translations', true],
      ['20261124000020-geometry-collection', true],
      ['20261124000030-automation-outbox', true],
      ['20261126000010-extensions', true],
      ['20261126000020-auth-access-stamps', true],
      ['20261126000038-outbox-record-function', true],
      ['20261127000001-auth-saml-used-requests', true],
      ['20261128000001-public-registration', true],
      ['project/N-add-post-views', true],
      ['project/29991231000000-broken', false],
    ]);
    expect((await query(`select count(*)::int as n from information_schema.tables where table_name = 'half_done'`)).rows[0].n).toBe(0);
    expect((await query(`select count(*)::int as n from information_schema.tables where table_name = 'page_views'`)).rows[0].n).toBe(1);

    rmSync(failing);
    expect(JSON.parse((await runCli(['migrate', '--json'], { cwd, env })).stdout).migrations).toEqual([]);
    const down = await runCli(['migrate', 'down', '--json'], { cwd, env });
    expect(JSON.parse(down.stdout).migrations).toEqual([expect.stringMatching(/^project\/\d{14}-add-post-views$/)]);
    expect(existsSync(file)).toBe(true);
    expect((await query(`select count(*)::int as n from information_schema.tables where table_name = 'page_views'`)).rows[0].n).toBe(0);
  });
});

describe('tessera init --template blog', () => {
  it('creates a project from the example; diff against the example then exits 0', async () => {
    const empty = await createEmptyDatabase();
    try {
      const args = ['init', 'blog', '--yes', '--template', 'blog', '--name', 'Tessera Blog', '--db-url', empty.url, '--admin-password', 'admin-password-1'];
      const init = await runCli(args, { cwd });
      expect(init.code).toBe(0);
      expect(init.stdout).toContain('(template: blog)');
      const diff = await runCli(['diff', '--from', EXAMPLE_FOLDER], { cwd: path.join(cwd, 'blog') });
      expect(diff).toMatchObject({ code: 0, stdout: 'In sync: nothing to change.\n' });
      expect((await runCli(['init', 'other', '--yes', '--template', 'shop'], { cwd })).code).toBe(2);
    } finally {
      await empty.drop();
    }
  });
});
