import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as antd from 'antd';
import React from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
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

  it('build compiles src/ again after an edit; create refuses unknown kinds and bad names', async () => {
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

    expect((await runCli(['extensions', 'create', 'theme', 'fancy'], { cwd: project, env })).code).toBe(2);
    expect((await runCli(['extensions', 'create', 'hook', '../escape'], { cwd: project, env })).code).toBe(2);
  });
});

describe('admin extensions', () => {
  it('create writes a TSX starter of each admin kind, bundled into one ES module without React or antd', async () => {
    for (const kind of ['interface', 'display', 'layout', 'panel', 'module']) {
      const created = await runCli(['extensions', 'create', kind, `my-${kind}`], { cwd: project, env });
      expect(created.stderr).not.toMatch(/error/i);
      expect(created.code).toBe(0);
      const folder = path.join(project, `extensions/my-${kind}`);
      const manifest = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8'));
      expect(manifest['tessera:extension']).toMatchObject({ type: kind, path: 'dist/index.js', source: 'src/index.tsx' });
      const code = await readFile(path.join(folder, 'dist/index.js'), 'utf8');
      expect(code).toContain('React.createElement');
      expect(code).not.toMatch(/from ['"](react|antd)/);
      expect(code).not.toContain('interface LayoutProps');
      const module = await import(path.join(folder, 'dist/index.js'));
      const definition = module.default({ React, antd, sdk: {} });
      expect(definition).toMatchObject({ type: kind, id: `my-${kind}`, name: `My ${kind}` });
      expect(typeof definition.component).toBe('function');
    }
    // Interfaces, displays and layouts render with the host's React and antd alone.
    const render = async (kind: string, props: Record<string, unknown>) => {
      const { component } = (await import(path.join(project, `extensions/my-${kind}/dist/index.js`))).default({ React, antd, sdk: {} });
      return renderToStaticMarkup(React.createElement(component, props));
    };
    expect(await render('interface', { value: 'typed', onChange: () => {}, options: {} })).toContain('value="typed"');
    expect(await render('display', { value: 42, options: {} })).toContain('42');
    const layout = await render('layout', { collection: 'books', primaryKey: 'id', fields: [{ field: 'title', type: 'string' }], items: [{ id: 1, title: 'Dune' }], total: 1, loading: false, options: {}, onOptionsChange: () => {}, onOpen: () => {} });
    expect(layout).toContain('Dune');

    const listed = JSON.parse((await runCli(['extensions', 'list', '--json'], { cwd: project, env })).stdout) as Array<Record<string, unknown>>;
    expect(listed.filter((row) => String(row.name).startsWith('my-')).map((row) => [row.name, row.status])).toEqual(['display', 'interface', 'layout', 'module', 'panel'].map((kind) => [`my-${kind}`, 'loaded']));
  });

  it('build refuses an admin entry that imports React instead of taking it from the host', async () => {
    const source = path.join(project, 'extensions/my-display/src/index.tsx');
    await writeFile(source, `import { useState } from 'react';\nexport default () => ({ type: 'display', id: 'my-display', name: 'x', component: () => String(useState) });\n`);
    const built = await runCli(['extensions', 'build', 'my-display'], { cwd: project, env });
    expect(built.code).not.toBe(0);
    expect(built.stderr).toContain('takes React, antd and the SDK from the host');
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
