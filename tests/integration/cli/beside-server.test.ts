import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, runCli, spawnCli } from '../../helpers/cli.ts';

afterAll(() => killSpawned());

describe('CLI commands beside a running embedded server', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-beside-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('snapshot, diff, users list and users passwd use the running server\'s database', { timeout: 120_000 }, async () => {
    const server = spawnCli(['start'], { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1' } });
    try {
      const [, port] = await server.waitFor(/Admin:\s+http:\/\/localhost:(\d+)\/admin/);
      const url = `http://127.0.0.1:${port}`;
      const [, password] = await server.waitFor(/password:\s+(\S+)/);
      const login = (pass: string) =>
        fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: pass }) });
      const token = ((await (await login(password!)).json()) as { data: { access_token: string } }).data.access_token;

      // A model change made through the running server (as in the admin), then snapshotted from the CLI.
      const created = await fetch(`${url}/collections`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ collection: 'notes', schema: {}, fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }] }),
      });
      expect(created.status).toBe(200);

      const snapshot = await runCli(['snapshot'], { cwd: dir });
      expect(snapshot.stderr).not.toContain('in use by process');
      expect(snapshot.code).toBe(0);
      expect(existsSync(path.join(dir, 'snapshots/collections/notes.yaml'))).toBe(true);
      expect(readFileSync(path.join(dir, 'snapshots/collections/notes.yaml'), 'utf8')).toContain('collection: notes');

      expect(await runCli(['diff'], { cwd: dir })).toMatchObject({ code: 0 });

      const list = await runCli(['users', 'list', '--json'], { cwd: dir });
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ email: 'admin@example.com', role_name: 'Administrator' })]);

      expect((await runCli(['users', 'passwd', '--email', 'admin@example.com', '--password', 'changed-beside-1'], { cwd: dir })).code).toBe(0);
      expect((await login('changed-beside-1')).status).toBe(200);
      expect((await fetch(`${url}/server/health`)).status).toBe(200);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    // The server released the data folder: a command now opens the embedded database itself.
    expect((await runCli(['users', 'list'], { cwd: dir })).code).toBe(0);
  });
});

describe('apply beside a running embedded server', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-beside-apply-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the server serves what apply or migrate added on its very next request, and they say so', { timeout: 120_000 }, async () => {
    const server = spawnCli(['start'], { cwd: dir, env: { PORT: '0', HOST: '127.0.0.1' } });
    try {
      const [, port] = await server.waitFor(/Admin:\s+http:\/\/localhost:(\d+)\/admin/);
      const url = `http://127.0.0.1:${port}`;
      const [, password] = await server.waitFor(/password:\s+(\S+)/);
      const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password }) });
      const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
      const readTasks = () => fetch(`${url}/items/tasks`, { headers: { authorization: `Bearer ${token}` } });
      // The server has read its schema: tasks is unknown to it.
      expect((await readTasks()).status).toBe(403);

      // The lock file names the control port and its token, and only its owner may read it.
      const lockFile = path.join(dir, 'data/tessera.lock');
      expect(statSync(lockFile).mode & 0o777).toBe(0o600);
      const { control } = JSON.parse(readFileSync(lockFile, 'utf8')) as { control: { port: number; token: string } };
      const notify = (token: string, route = '/schema-changed') => fetch(`http://127.0.0.1:${control.port}${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect((await notify('x'.repeat(control.token.length))).status).toBe(401);
      expect((await notify(control.token, '/other')).status).toBe(404);

      expect((await runCli(['snapshot', '--out', 'snap'], { cwd: dir })).code).toBe(0);
      mkdirSync(path.join(dir, 'snap/collections'), { recursive: true });
      writeFileSync(
        path.join(dir, 'snap/collections/tasks.yaml'),
        ['collection: tasks', 'fields:', '  - field: id', '    type: integer', '    schema: { is_primary_key: true, has_auto_increment: true }', '  - field: title', '    type: string', ''].join('\n'),
      );
      const applied = await runCli(['apply', '--from', 'snap', '--yes'], { cwd: dir });
      expect(applied.stderr).not.toContain('Unexpected error');
      expect(applied.code).toBe(0);

      // The very next request, no restart: the new collection is served.
      const tasks = await readTasks();
      expect(tasks.status).toBe(200);
      expect(await tasks.json()).toEqual({ data: [] });
      expect(applied.stdout).toMatch(/The running server \(process \d+\) picked up the change: it serves it from its next request\./);

      // A project migration run beside it reaches it the same way.
      mkdirSync(path.join(dir, 'project-migrations'));
      writeFileSync(
        path.join(dir, 'project-migrations/20261126000000-notes.ts'),
        "export async function up(db: any) { await db.schema.createTable('notes').addColumn('id', 'serial', (column: any) => column.primaryKey()).execute(); }\nexport async function down() {}\n",
      );
      const migrated = await runCli(['migrate'], { cwd: dir });
      expect(migrated.code).toBe(0);
      const notes = await fetch(`${url}/items/notes`, { headers: { authorization: `Bearer ${token}` } });
      expect(notes.status).toBe(200);
      expect(migrated.stderr + migrated.stdout).toMatch(/The running server \(process \d+\) picked up the change/);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
  });
});
