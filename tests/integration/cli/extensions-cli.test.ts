import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * `tessera extensions create|build|list`, and CLI commands that hook extensions add through
 * init('cli.before' | 'cli.after'), with the published directus-extension-models 2.5.2 unmodified.
 */
const REPO_MODULES = fileURLToPath(new URL('../../../node_modules', import.meta.url));

let t: TestApp;
let project: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.login();
  await t.request.post('/collections').set({ Authorization: `Bearer ${admin}` }).send({ collection: 'books', fields: [{ field: 'title', type: 'string' }, { field: 'pages', type: 'integer' }] }).expect(200);
  project = await mkdtemp(path.join(tmpdir(), 'tessera-ext-cli-'));
  env = { DB_URL: t.testDatabase.url, SECRET: 'test-secret-that-is-long-enough-0123456789', EXTENSIONS_PATH: path.join(project, 'extensions') };
});

afterAll(async () => {
  await t?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

describe('tessera extensions', () => {
  it('create writes a TypeScript starter that builds and loads', async () => {
    const created = await runCli(['extensions', 'create', 'hook', 'audit-trail'], { cwd: project, env });
    expect(created.stderr).not.toMatch(/error/i);
    expect(created.code).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(project, 'extensions/audit-trail/package.json'), 'utf8'));
    expect(manifest['tessera:extension']).toMatchObject({ type: 'hook', path: 'dist/index.js', source: 'src/index.ts' });
    expect(await readFile(path.join(project, 'extensions/audit-trail/dist/index.js'), 'utf8')).not.toContain('interface Register');

    await runCli(['extensions', 'create', 'operation', 'stamp'], { cwd: project, env });
    const listed = await runCli(['extensions', 'list', '--json'], { cwd: project, env });
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((row) => [row.name, row.type, row.status])).toEqual([
      ['audit-trail', 'hook', 'loaded'],
      ['stamp', 'operation', 'loaded'],
    ]);
  });

  it('build compiles src/ again after an edit; create refuses admin kinds and bad names', async () => {
    const source = path.join(project, 'extensions/audit-trail/src/index.ts');
    await writeFile(source, `import { label } from './label.ts';\nexport default ({ filter }: { filter: (event: string, handler: (payload: Record<string, unknown>) => Record<string, unknown>) => void }) => filter('items.create', (payload) => ({ ...payload, note: label }));\n`);
    await writeFile(path.join(project, 'extensions/audit-trail/src/label.ts'), `export const label: string = 'stamped';\n`);
    const built = await runCli(['extensions', 'build', 'audit-trail'], { cwd: project, env });
    expect(built.code).toBe(0);
    expect(await readFile(path.join(project, 'extensions/audit-trail/dist/index.js'), 'utf8')).toContain(`from './label.js'`);
    const module = await import(path.join(project, 'extensions/audit-trail/dist/index.js'));
    const filters: Array<(payload: Record<string, unknown>) => Record<string, unknown>> = [];
    module.default({ filter: (_event: string, handler: (payload: Record<string, unknown>) => Record<string, unknown>) => filters.push(handler) });
    expect(filters[0]!({ title: 'x' })).toEqual({ title: 'x', note: 'stamped' });

    expect((await runCli(['extensions', 'create', 'interface', 'fancy'], { cwd: project, env })).code).toBe(2);
    expect((await runCli(['extensions', 'create', 'hook', '../escape'], { cwd: project, env })).code).toBe(2);
  });
});

describe("a hook's CLI commands", () => {
  it('directus-extension-models adds `models snapshot`, which writes the schema as TypeScript', async () => {
    const withModels = await mkdtemp(path.join(tmpdir(), 'tessera-models-'));
    try {
      await writeFile(path.join(withModels, 'package.json'), JSON.stringify({ name: 'p', private: true, dependencies: { 'directus-extension-models': '2.5.2' } }));
      await mkdir(path.join(withModels, 'node_modules'));
      await symlink(path.join(REPO_MODULES, 'directus-extension-models'), path.join(withModels, 'node_modules/directus-extension-models'));
      const out = path.join(withModels, 'types/schema.d.ts');
      const result = await runCli(['models', 'snapshot', out], { cwd: withModels, env: { ...env, EXTENSIONS_PATH: path.join(withModels, 'extensions') } });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const types = await readFile(out, 'utf8');
      expect(types).toMatch(/books/);
      expect(types).toMatch(/title\??: string/);
      expect(types).toMatch(/pages\??: number/);
      expect(types).toMatch(/directus_users/);
    } finally {
      await rm(withModels, { recursive: true, force: true });
    }
  });

  it('leaves built-in commands alone: an unknown command without hooks is a usage error', async () => {
    const result = await runCli(['no-such-command'], { cwd: project, env: { ...env, EXTENSIONS_PATH: path.join(project, 'none') } });
    expect(result.code).toBe(2);
  });
});
